import { DomainError } from '@gateway/errors';
import type { CallContext } from '@gateway/grpc';
import type { common } from '@gateway/proto';
import { requireUser, type KeyActor, type SessionActor } from './actor';

/**
 * The caller of a read: a service call acts for the session actor it carries; an API-key call
 * ignores any actor in the message and acts as the key (its own project only).
 */
export function callerOf(actor: common.Actor | undefined, ctx: CallContext): SessionActor | KeyActor {
  if (ctx.principal.kind === 'api_key') {
    return { kind: 'api_key', keyId: ctx.principal.keyId, organizationId: ctx.principal.organizationId, keyProjectId: ctx.principal.projectId };
  }
  return requireUser(actor);
}

/** Writes and session operations: only a service caller (edge) acting for a session user. */
export function userOf(actor: common.Actor | undefined, ctx: CallContext): SessionActor {
  if (ctx.principal.kind !== 'service') throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
  return requireUser(actor);
}

export function requireService(ctx: CallContext): void {
  if (ctx.principal.kind !== 'service') throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
}
