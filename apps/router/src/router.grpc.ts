import type { ServiceHandlers } from '@gateway/grpc';
import { DomainError } from '@gateway/errors';
import type { controlplane, router } from '@gateway/proto';
import { routeForProject } from '@gateway/routing';

/** A project's settings and registry (the cached control-plane answer in production). */
export interface PolicySource {
  get(projectId: number): Promise<controlplane.ProjectPolicy>;
}

export function routerHandlers(policies: PolicySource): Partial<ServiceHandlers<typeof router.RouterServiceService>> {
  return {
    route: async (req, ctx) => {
      if (ctx.principal.kind === 'api_key' && ctx.principal.projectId !== req.projectId) throw new DomainError('NOT_FOUND', 'Not found');
      if (!Number.isInteger(req.projectId) || req.projectId <= 0) throw new DomainError('VALIDATION_FAILED', 'project_id must be a positive integer');
      return routeForProject(req, await policies.get(req.projectId));
    },
  };
}
