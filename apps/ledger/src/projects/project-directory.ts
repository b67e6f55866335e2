import { ProjectDeletionCheck } from '@gateway/grpc';

/** Asks the owner of projects (control-plane) whether a project is really gone. */
export interface ProjectDirectory {
  isDeleted(projectId: number): Promise<boolean>;
}

/**
 * Deleting a project's data is irreversible, so a `project.changed` event alone is not enough:
 * control-plane must also answer that the project no longer exists (NOT_FOUND, or a project
 * whose status is `deleted`). The check is shared with analytics and insights (@gateway/grpc
 * ProjectDeletionCheck); control-plane unreachable → the error propagates and the event is
 * redelivered later.
 */
export class ControlPlaneProjectDirectory extends ProjectDeletionCheck implements ProjectDirectory {}
