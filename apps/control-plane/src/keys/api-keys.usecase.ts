import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DomainError } from '@gateway/errors';
import type { ControlPlaneDb } from '../database';
import type { ApiKey as ApiKeyRow } from '../generated/prisma/client';
import { requireRole, type SessionActor } from '../actor';
import { recordAudit } from '../audit/audit.repository';
import type { ProjectsUseCase } from '../projects/projects.usecase';
import { currentMonthSpend } from '../spend/monthly-spend.repository';
import { emitKeyChanged } from './key-events';

export { emitKeyChanged } from './key-events';

export interface ApiKeyView {
  id: string;
  name: string;
  masked: string;
  status: string;
  hourlyLimit: number | null;
  projectId: number;
  projectName: string;
  expiresAt: string | null;
  loopInterventionCount: number;
  lastUsed: string | null;
  createdAt: string;
  loopGuardExempt: boolean;
}

export interface KeyPrincipalView {
  keyId: string;
  projectId: number;
  organizationId: number;
  /** active | tripped | loop_detected | revoked | expired */
  status: string;
  hourlyLimit: number | null;
  loopGuardExempt: boolean;
  projectStatus: string;
  monthlyBudgetUsd: number | null;
  projectMonthlySpendUsd: number;
  blockedIps: string[];
  /** ms until expires_at (null = no expiry): a cached answer must not outlive the key. */
  expiresInMs: number | null;
  /** ms epoch of the last admin reset to active (0 = never): the key's generation; edge drops trips of older ones. */
  resetAtMs: number;
}

const KEY_STATUSES = ['active', 'tripped', 'loop_detected'] as const;
const TRIP_STATUSES = ['tripped', 'loop_detected'] as const;
const KEY_ID = /^ak_[0-9a-f]{4,64}$/;
const MAX_TOUCH_BATCH = 10_000;
/** The largest time a JavaScript Date holds (ms epoch). */
const MAX_EPOCH_MS = 8.64e15;
// The secret is 256 random bits, so a single SHA-256 is enough (no dictionary to slow down).
const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');
const unauthorized = () => new DomainError('UNAUTHENTICATED', 'Unauthorized');

function fail(errors: string[]): never {
  throw new DomainError('VALIDATION_FAILED', errors.join(', '), { errors });
}

function hourlyLimitErrors(value: number | null | undefined): string[] {
  return value !== undefined && value !== null && (!Number.isFinite(value) || value < 0) ? ['Hourly limit must be a non-negative number'] : [];
}

/**
 * Project-scoped API keys `ak_<16 hex>.<43 chars base64url = 256 bits>`. Only a SHA-256 of the
 * secret is stored and compared in constant time; `raw_key` is answered once, at creation.
 * Listing is open to every member of the organization; creating, changing and revoking need
 * admin or owner. Every status change publishes key.changed so edge drops its cached principal.
 */
export class ApiKeysUseCase {
  constructor(private readonly db: ControlPlaneDb, private readonly projects: ProjectsUseCase, private readonly schema: string) {
    if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  }

  async create(actor: SessionActor, input: { name: string; projectId: number; hourlyLimit?: number; expiresAt?: string; loopGuardExempt?: boolean }): Promise<{ view: ApiKeyView; rawKey: string }> {
    requireRole(actor, ['owner', 'admin']);
    const errors: string[] = [];
    if (!input.name || input.name.trim() === '') errors.push("Name can't be blank");
    else if (input.name.trim().length > 200) errors.push('Name is too long (maximum is 200 characters)');
    errors.push(...hourlyLimitErrors(input.hourlyLimit));
    let expiresAt: Date | undefined;
    if (input.expiresAt !== undefined) {
      // ISO8601 date-time with an explicit zone, in the future.
      const wellFormed = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(input.expiresAt);
      expiresAt = new Date(input.expiresAt);
      if (!wellFormed || Number.isNaN(expiresAt.getTime())) errors.push('Expires at must be an ISO8601 time');
      else if (expiresAt.getTime() <= Date.now()) errors.push('Expires at must be in the future');
    }
    if (errors.length > 0) fail(errors);
    const project = await this.projects.findOwned(actor, input.projectId);
    if (project.status === 'archived') fail(['Project is archived']);
    const id = `ak_${randomBytes(8).toString('hex')}`;
    const secret = randomBytes(32).toString('base64url');
    const rawKey = `${id}.${secret}`;
    const row = await this.db.apiKey.create({
      data: {
        id,
        projectId: project.id,
        organizationId: project.organizationId,
        name: input.name.trim(),
        secretHash: hashSecret(secret),
        // First 6 and last 4 characters: enough to recognise a key, useless to use it.
        masked: `${rawKey.slice(0, 6)}...${rawKey.slice(-4)}`,
        hourlyLimit: input.hourlyLimit ?? null,
        expiresAt: expiresAt ?? null,
        loopGuardExempt: input.loopGuardExempt ?? false,
      },
    });
    return { view: this.toView(row, project.name), rawKey };
  }

  async list(actor: SessionActor): Promise<ApiKeyView[]> {
    const rows = await this.db.apiKey.findMany({ where: { organizationId: BigInt(actor.organizationId), status: { not: 'revoked' } }, orderBy: { createdAt: 'asc' } });
    const projects = await this.db.project.findMany({ where: { organizationId: BigInt(actor.organizationId) }, select: { id: true, name: true } });
    const names = new Map(projects.map((p) => [p.id, p.name]));
    return rows.map((row) => this.toView(row, names.get(row.projectId) ?? ''));
  }

  /**
   * Verifies `ak_<hex>.<secret>`. Malformed, unknown or wrong-secret credentials are
   * UNAUTHENTICATED (edge: invalid_key). A genuine key answers its principal whatever its
   * status, with `expired` for a key past expires_at and `revoked` for a deleted one, so edge
   * can refuse it (401) and record the right perimeter_block cause.
   */
  async verify(rawKey: string): Promise<KeyPrincipalView> {
    const dot = rawKey.indexOf('.');
    const id = dot > 0 ? rawKey.slice(0, dot) : '';
    const secret = dot > 0 ? rawKey.slice(dot + 1) : '';
    if (!KEY_ID.test(id) || !secret || secret.length > 256) throw unauthorized();
    const row = await this.db.apiKey.findUnique({ where: { id } });
    const expected = Buffer.from(row?.secretHash ?? '0'.repeat(64), 'hex');
    const actual = Buffer.from(hashSecret(secret), 'hex');
    const matches = expected.length === actual.length && timingSafeEqual(expected, actual);
    if (!row || !matches) throw unauthorized();
    const [project, organization, spend] = await Promise.all([
      this.db.project.findUnique({ where: { id: row.projectId } }),
      this.db.organization.findUnique({ where: { id: row.organizationId }, select: { blockedIps: true } }),
      currentMonthSpend(this.db, [row.projectId]),
    ]);
    if (!project) throw unauthorized();
    const budget = (project.settings as Record<string, unknown> | null)?.monthly_budget_usd;
    const expired = row.expiresAt !== null && row.expiresAt.getTime() <= Date.now();
    return {
      keyId: row.id,
      projectId: Number(row.projectId),
      organizationId: Number(row.organizationId),
      status: row.status === 'revoked' ? 'revoked' : expired ? 'expired' : row.status,
      hourlyLimit: row.hourlyLimit,
      loopGuardExempt: row.loopGuardExempt,
      projectStatus: project.status,
      monthlyBudgetUsd: typeof budget === 'number' ? budget : null,
      projectMonthlySpendUsd: spend.get(project.id) ?? 0,
      blockedIps: organization?.blockedIps ?? [],
      expiresInMs: row.expiresAt === null ? null : Math.max(0, row.expiresAt.getTime() - Date.now()),
      resetAtMs: row.resetAt?.getTime() ?? 0,
    };
  }

  /**
   * PATCH status (active | tripped | loop_detected) and/or hourly_limit (null = no cap). An explicit
   * `status: active` is a reset (as edge's key.changed handler treats it): it moves `reset_at`, the
   * key's generation, so edge clears trips decided under an older one even if it missed this
   * change's broadcast, and control-plane ignores trips reported under an older one.
   */
  async update(actor: SessionActor, keyId: string, patch: { status?: string; hourlyLimit?: number | null }): Promise<ApiKeyView> {
    requireRole(actor, ['owner', 'admin']);
    const row = await this.findOwned(actor, keyId);
    const errors: string[] = [];
    if (patch.status !== undefined && !(KEY_STATUSES as readonly string[]).includes(patch.status)) errors.push(`Status must be one of ${KEY_STATUSES.join(', ')}`);
    errors.push(...hourlyLimitErrors(patch.hourlyLimit));
    if (errors.length > 0) fail(errors);
    const updated = await this.db.$transaction(async (tx) => {
      let next = await tx.apiKey.update({ where: { id: row.id }, data: { status: patch.status, hourlyLimit: patch.hourlyLimit } });
      if (patch.status === 'active') {
        // The update above holds the row's lock (after any trip being recorded concurrently has
        // committed), so `next.resetAt` is the latest and only this transaction moves it now: the
        // generation only ever grows, even between control-plane replicas whose clocks differ.
        const resetAt = new Date(Math.max(Date.now(), (next.resetAt?.getTime() ?? 0) + 1));
        next = await tx.apiKey.update({ where: { id: row.id }, data: { resetAt } });
      }
      await emitKeyChanged(tx, next, { reset: patch.status === 'active' });
      return next;
    });
    const project = await this.db.project.findUnique({ where: { id: updated.projectId } });
    return this.toView(updated, project?.name ?? '');
  }

  async revoke(actor: SessionActor, keyId: string): Promise<void> {
    requireRole(actor, ['owner', 'admin']);
    const row = await this.findOwned(actor, keyId);
    await this.db.$transaction(async (tx) => {
      const next = await tx.apiKey.update({ where: { id: row.id }, data: { status: 'revoked' } });
      await emitKeyChanged(tx, next);
    });
  }

  /**
   * Edge reports a protection trip. `loop_detected` counts one loop intervention and is audited
   * (perimeter_block, cause loop_detected); `tripped` (hourly spend cap) is audited with cause
   * hourly_limit. Both publish key.changed. A key already in that status is left as is (edge
   * replicas may report the same trip), so the count is per halt, not per report. A trip decided
   * under an older reset generation than the key's (`resetAtMs` below its reset_at: the edge still
   * held the settings an admin has since reset) is ignored as well: the reset stands.
   */
  async recordTrip(input: { keyId: string; status: string; resetAtMs?: number; ip: string; userAgent: string }): Promise<ApiKeyView> {
    if (!(TRIP_STATUSES as readonly string[]).includes(input.status)) fail([`Status must be one of ${TRIP_STATUSES.join(', ')}`]);
    // Absent: an edge of an earlier version, which knows no generations; its trip is recorded.
    const generation = input.resetAtMs;
    if (generation !== undefined && !(Number.isSafeInteger(generation) && generation >= 0 && generation <= MAX_EPOCH_MS)) fail(['reset_at_ms must be an integer ms epoch']);
    const row = KEY_ID.test(input.keyId) ? await this.db.apiKey.findUnique({ where: { id: input.keyId } }) : null;
    if (!row || row.status === 'revoked') throw new DomainError('NOT_FOUND', 'Not found');
    const updated = await this.db.$transaction(async (tx) => {
      // Conditional on the current status, so concurrent reports count one halt, and on the reset
      // generation as locked by this statement, so a reset committed meanwhile stands.
      const { count } = await tx.apiKey.updateMany({
        where: {
          id: row.id,
          status: { notIn: [input.status, 'revoked'] },
          ...(generation === undefined ? {} : { OR: [{ resetAt: null }, { resetAt: { lte: new Date(generation) } }] }),
        },
        data: { status: input.status, ...(input.status === 'loop_detected' ? { loopInterventionCount: { increment: 1 } } : {}) },
      });
      const next = await tx.apiKey.findUniqueOrThrow({ where: { id: row.id } });
      if (count === 1) {
        await emitKeyChanged(tx, next);
        await recordAudit(tx, {
          organizationId: Number(row.organizationId),
          event: 'perimeter_block',
          ip: input.ip.slice(0, 64),
          userAgent: input.userAgent.slice(0, 512),
          metadata: { cause: input.status === 'loop_detected' ? 'loop_detected' : 'hourly_limit', key_id: row.id, project_id: Number(row.projectId), loop_intervention_count: next.loopInterventionCount },
        });
      }
      return next;
    });
    const project = await this.db.project.findUnique({ where: { id: updated.projectId } });
    return this.toView(updated, project?.name ?? '');
  }

  /**
   * last_used for a batch of keys (edge collects uses in memory and sends them every few
   * seconds): one UPDATE for the whole batch, only ever moving a timestamp forward, and never
   * past now. Unknown ids and unparseable times are ignored.
   */
  async touch(lastUsed: Record<string, string>): Promise<number> {
    const now = Date.now();
    const ids: string[] = [];
    const times: string[] = [];
    for (const [id, at] of Object.entries(lastUsed).slice(0, MAX_TOUCH_BATCH)) {
      const time = new Date(at).getTime();
      if (!KEY_ID.test(id) || Number.isNaN(time)) continue;
      ids.push(id);
      times.push(new Date(Math.min(time, now)).toISOString());
    }
    if (ids.length === 0) return 0;
    const table = `"${this.schema}"."api_keys"`;
    return this.db.$executeRawUnsafe(
      `UPDATE ${table} AS k SET last_used_at = GREATEST(COALESCE(k.last_used_at, v.at), v.at)
       FROM (SELECT unnest($1::text[]) AS id, unnest($2::timestamptz[]) AS at) AS v
       WHERE k.id = v.id`,
      ids,
      times,
    );
  }

  private async findOwned(actor: SessionActor, keyId: string): Promise<ApiKeyRow> {
    const row = KEY_ID.test(keyId) ? await this.db.apiKey.findFirst({ where: { id: keyId, organizationId: BigInt(actor.organizationId), status: { not: 'revoked' } } }) : null;
    if (!row) throw new DomainError('NOT_FOUND', 'Not found');
    return row;
  }

  private toView(row: ApiKeyRow, projectName: string): ApiKeyView {
    return {
      id: row.id,
      name: row.name,
      masked: row.masked,
      status: row.status,
      hourlyLimit: row.hourlyLimit,
      projectId: Number(row.projectId),
      projectName,
      expiresAt: row.expiresAt?.toISOString() ?? null,
      loopInterventionCount: row.loopInterventionCount,
      lastUsed: row.lastUsedAt?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
      loopGuardExempt: row.loopGuardExempt,
    };
  }
}
