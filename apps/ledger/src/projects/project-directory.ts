import { isDomainError } from '@gateway/errors';
import type { ProjectPolicyCache } from '@gateway/grpc';

/** Asks the owner of projects (control-plane) whether a project is really gone. */
export interface ProjectDirectory {
  isDeleted(projectId: number): Promise<boolean>;
}

/**
 * Deleting a project's data is irreversible, so a `project.changed` event alone is not enough:
 * control-plane must also answer that the project no longer exists (NOT_FOUND, or a project
 * whose status is `deleted`). A misrouted or forged event cannot wipe a live project.
 * Control-plane unreachable → the error propagates and the event is redelivered later.
 */
export class ControlPlaneProjectDirectory implements ProjectDirectory {
  constructor(private readonly policies: Pick<ProjectPolicyCache, 'get' | 'invalidate'>) {}

  async isDeleted(projectId: number): Promise<boolean> {
    this.policies.invalidate(projectId);
    try {
      const policy = await this.policies.get(projectId);
      return policy.project?.status === 'deleted';
    } catch (error) {
      if (isDomainError(error) && error.code === 'NOT_FOUND') return true;
      throw error;
    }
  }
}
