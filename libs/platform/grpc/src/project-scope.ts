import { DomainError } from '@gateway/errors';
import type { CallContext } from './types';

/**
 * The project a gRPC call may act on. An internal team's API key acts on its own project only:
 * naming another one is answered like a missing resource. A service (edge, replay-worker) names
 * the project; when it acts for an API key (`actor.keyProjectId`), that key's project must match.
 */
export function projectOfCall(
  ctx: CallContext,
  requested: number,
  options: { actor?: { keyProjectId?: number }; notOwned?: () => DomainError } = {},
): number {
  const notOwned = options.notOwned ?? (() => new DomainError('NOT_FOUND', 'Not found'));
  if (ctx.principal.kind === 'api_key') {
    if (requested && requested !== ctx.principal.projectId) throw notOwned();
    return ctx.principal.projectId;
  }
  if (!requested || requested < 1) throw new DomainError('BAD_REQUEST', 'project_id is required');
  if (options.actor?.keyProjectId !== undefined && options.actor.keyProjectId !== requested) throw notOwned();
  return requested;
}
