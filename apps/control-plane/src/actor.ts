import { DomainError } from '@gateway/errors';
import type { common } from '@gateway/proto';

export type Role = 'owner' | 'admin' | 'member';

export interface SessionActor {
  userId: string;
  organizationId: number;
  role: Role;
  ip: string;
  userAgent: string;
}

/** Calls on behalf of a dashboard user carry the actor edge resolved from the session. */
export function requireUser(actor: common.Actor | undefined): SessionActor {
  if (!actor?.userId || !actor.organizationId || !['owner', 'admin', 'member'].includes(actor.role)) {
    throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
  }
  return { userId: actor.userId, organizationId: actor.organizationId, role: actor.role as Role, ip: actor.ip, userAgent: actor.userAgent };
}

export function requireRole(actor: SessionActor, roles: Role[]): void {
  if (!roles.includes(actor.role)) throw new DomainError('FORBIDDEN', 'Forbidden');
}
