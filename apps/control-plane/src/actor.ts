import { DomainError } from '@gateway/errors';
import type { common } from '@gateway/proto';

export type Role = 'owner' | 'admin' | 'member';
export const ROLES: readonly Role[] = ['owner', 'admin', 'member'];

/** A dashboard user, as edge resolved them from the session (trusted only from a service caller). */
export interface SessionActor {
  kind: 'user';
  userId: string;
  organizationId: number;
  role: Role;
  ip: string;
  userAgent: string;
}

/** An internal team calling over gRPC with an API key: reads of the key's own project only. */
export interface KeyActor {
  kind: 'api_key';
  keyId: string;
  organizationId: number;
  /** The only project this caller may see. */
  keyProjectId: number;
}

/** What read paths need: an organization, narrowed to one project for an API key. */
export interface Scope {
  organizationId: number;
  keyProjectId?: number;
}

/** Calls on behalf of a dashboard user carry the actor edge resolved from the session. */
export function requireUser(actor: common.Actor | undefined): SessionActor {
  if (!actor?.userId || !actor.organizationId || !(ROLES as readonly string[]).includes(actor.role)) {
    throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
  }
  return { kind: 'user', userId: actor.userId, organizationId: actor.organizationId, role: actor.role as Role, ip: actor.ip, userAgent: actor.userAgent };
}

export function requireRole(actor: SessionActor, roles: Role[]): void {
  if (!roles.includes(actor.role)) throw new DomainError('FORBIDDEN', 'Forbidden');
}
