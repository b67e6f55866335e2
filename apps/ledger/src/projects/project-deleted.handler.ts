import { typedHandler, type MessageHandler } from '@gateway/bus';
import type { Logger } from '@gateway/logging';
import { events } from '@gateway/proto';
import type { DeleteProjectDataUseCase } from './delete-project-data.usecase';
import type { ProjectDirectory } from './project-directory';

/**
 * `gateway.v1.project.changed` with change `deleted` → every trace and step of the project is
 * deleted (durable consumer: a crash mid-way redelivers, and the delete is idempotent). Other
 * changes are acknowledged and ignored.
 */
export function projectDeletedHandler(deps: { deleteData: DeleteProjectDataUseCase; directory: ProjectDirectory; logger: Logger }): MessageHandler {
  return typedHandler('ledger', events.ProjectChanged, async (event) => {
    if (event.change !== 'deleted' || !event.projectId) return;
    if (!(await deps.directory.isDeleted(event.projectId))) {
      deps.logger.warn({ projectId: event.projectId, eventId: event.meta?.eventId }, 'project.changed deleted for a project control-plane still has; data kept');
      return;
    }
    const deleted = await deps.deleteData.execute(event.projectId);
    deps.logger.info({ projectId: event.projectId, ...deleted }, 'project data deleted');
  });
}
