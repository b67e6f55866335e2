import { DomainError } from '@gateway/errors';
import type { ControlPlaneDb } from '../database';
import { requireRole, type SessionActor } from '../actor';
import { emitProjectChanged } from '../projects/projects.usecase';
import { normalizeIpList } from './ip-list';

/**
 * The organization's IP block list (admin/owner). Edge refuses a blocked address from the key
 * principal it caches (KeyPrincipal.blocked_ips); a change publishes project.changed for every
 * project of the organization, which drops those cached principals on every replica.
 */
export class BlockedIpsUseCase {
  constructor(private readonly db: ControlPlaneDb) {}

  async get(actor: SessionActor): Promise<string[]> {
    requireRole(actor, ['owner', 'admin']);
    const organization = await this.db.organization.findUniqueOrThrow({ where: { id: BigInt(actor.organizationId) } });
    return organization.blockedIps ?? [];
  }

  async update(actor: SessionActor, entries: string[]): Promise<string[]> {
    requireRole(actor, ['owner', 'admin']);
    const { ips, errors } = normalizeIpList(entries);
    if (errors.length > 0) throw new DomainError('VALIDATION_FAILED', errors.join(', '), { errors });
    const organizationId = BigInt(actor.organizationId);
    await this.db.$transaction(async (tx) => {
      await tx.organization.update({ where: { id: organizationId }, data: { blockedIps: ips } });
      const projects = await tx.project.findMany({ where: { organizationId }, select: { id: true } });
      for (const project of projects) await emitProjectChanged(tx, project.id, organizationId, 'updated');
    });
    return ips;
  }
}
