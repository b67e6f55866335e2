import { DomainError } from '@gateway/errors';
import type { ControlPlaneDb } from '../database';
import { requireRole, type SessionActor } from '../actor';
import { recordAudit } from './audit.repository';

export interface AuditEventView {
  id: number;
  event: string;
  ip: string;
  userAgent: string;
  metadata: Record<string, unknown>;
  occurredAt: string;
}

export const PERIMETER_CAUSES = ['invalid_key', 'revoked_key', 'expired_key', 'paused_key', 'blocked_ip'] as const;
export type PerimeterCause = (typeof PERIMETER_CAUSES)[number];

const KEY_ID = /^ak_[0-9a-f]{4,64}$/;
const AUDIT_LIMIT = 50;

export interface PerimeterFloodSettings {
  /** perimeter_block rows stored per IP per minute by this replica; the rest are counted, not stored. */
  perIpPerMinute: number;
}

/**
 * The organization's audit list (admin/owner) and perimeter_block records reported by edge.
 *
 * A perimeter block names the key id only (a credential's part before the dot, never the
 * secret). It is attributed to the organization of that key id when such a key exists; a key id
 * nobody owns (or none at all) is stored with no organization, visible to operators in the
 * database but in no organization's list. Storing is capped per IP and minute so a flood of
 * refused requests cannot flood the table.
 */
export class AuditUseCase {
  private readonly perIp = new Map<string, { minute: number; count: number }>();
  dropped = 0;

  constructor(private readonly db: ControlPlaneDb, private readonly flood: PerimeterFloodSettings) {}

  async list(actor: SessionActor): Promise<AuditEventView[]> {
    requireRole(actor, ['owner', 'admin']);
    const rows = await this.db.auditEvent.findMany({
      where: { organizationId: BigInt(actor.organizationId) },
      orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
      take: AUDIT_LIMIT,
    });
    return rows.map((row) => ({
      id: Number(row.id),
      event: row.event,
      ip: row.ip,
      userAgent: row.userAgent,
      metadata: (row.metadata ?? {}) as Record<string, unknown>,
      occurredAt: row.occurredAt.toISOString(),
    }));
  }

  async recordPerimeterBlock(input: { cause: string; keyId: string; ip: string; userAgent: string; path: string }): Promise<{ stored: boolean }> {
    if (!(PERIMETER_CAUSES as readonly string[]).includes(input.cause)) {
      throw new DomainError('VALIDATION_FAILED', `Cause must be one of ${PERIMETER_CAUSES.join(', ')}`, { errors: [`Cause must be one of ${PERIMETER_CAUSES.join(', ')}`] });
    }
    if (!this.admit(input.ip)) {
      this.dropped += 1;
      return { stored: false };
    }
    // Whatever edge sent, keep only a well-formed key id: never anything after a dot.
    const candidate = (input.keyId ?? '').split('.', 1)[0];
    const keyId = KEY_ID.test(candidate) ? candidate : '';
    const key = keyId ? await this.db.apiKey.findUnique({ where: { id: keyId }, select: { organizationId: true, projectId: true } }) : null;
    await this.db.$transaction((tx) =>
      recordAudit(tx, {
        organizationId: key ? Number(key.organizationId) : null,
        event: 'perimeter_block',
        ip: input.ip.slice(0, 64),
        userAgent: input.userAgent.slice(0, 512),
        metadata: { cause: input.cause, key_id: keyId || null, path: input.path.slice(0, 512), ...(key ? { project_id: Number(key.projectId) } : {}) },
      }),
    );
    return { stored: true };
  }

  private admit(ip: string): boolean {
    const minute = Math.floor(Date.now() / 60_000);
    const entry = this.perIp.get(ip);
    if (!entry || entry.minute !== minute) {
      if (this.perIp.size > 10_000) this.perIp.clear();
      this.perIp.set(ip, { minute, count: 1 });
      return true;
    }
    entry.count += 1;
    return entry.count <= this.flood.perIpPerMinute;
  }
}
