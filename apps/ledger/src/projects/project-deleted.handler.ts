import type { MessageHandler } from '@gateway/bus';
import { projectDeletedHandler as deletionHandler } from '@gateway/grpc';
import type { Logger } from '@gateway/logging';
import type { DeleteProjectDataUseCase } from './delete-project-data.usecase';
import type { ProjectDirectory } from './project-directory';

/**
 * `gateway.v1.project.changed` with change `deleted`, confirmed by control-plane → every trace,
 * step and shadow result of the project is deleted (the shared consumer of @gateway/grpc, as in
 * analytics and insights: durable, redelivered on failure, the delete is idempotent). Other
 * changes are acknowledged and ignored.
 */
export function projectDeletedHandler(deps: { deleteData: DeleteProjectDataUseCase; directory: ProjectDirectory; logger: Logger }): MessageHandler {
  return deletionHandler('ledger', {
    check: deps.directory,
    // The ledger deletes everything of the project; the deletion time is not needed.
    deleteData: { execute: async (projectId) => ({ ...(await deps.deleteData.execute(projectId)) }) },
    logger: deps.logger,
  });
}
