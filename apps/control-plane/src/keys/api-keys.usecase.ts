import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { encodeEvent } from '@gateway/bus';
import { addToOutbox } from '@gateway/db';
import { DomainError } from '@gateway/errors';
import { events, Subjects } from '@gateway/proto';
import type { ControlPlaneDb } from '../database';
import type { ApiKey as ApiKeyRow, Prisma } from '../generated/prisma/client';
import { requireRole, type SessionActor } from '../actor';
import type { ProjectsUseCase } from '../projects/projects.usecase';

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
  status: string;
  hourlyLimit: number | null;
  loopGuardExempt: boolean;
  projectStatus: string;
  monthlyBudgetUsd: number | null;
}

const KEY_STATUSES = ['active', 'tripped', 'loop_detected'] as const;
// The secret is 256 random bits, so a single SHA-256 is enough (no dictionary to slow down).
const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

export async function emitKeyChanged(tx: Prisma.TransactionClient, row: ApiKeyRow, status = row.status): Promise<void> {
  await addToOutbox(
    tx,
    encodeEvent(Subjects.keyChanged, events.KeyChanged, {
      keyId: row.id,
      projectId: Number(row.projectId),
      status,
      hourlyLimit: row.hourlyLimit ?? undefined,
      loopInterventionCount: row.loopInterventionCount,
    }),
  );
}

export class ApiKeysUseCase {
  constructor(private readonly db: ControlPlaneDb, private readonly projects: ProjectsUseCase) {}

  async create(actor: SessionActor, input: { name: string; projectId: number; hourlyLimit?: number; expiresAt?: string; loopGuardExempt?: boolean }): Promise<{ view: ApiKeyView; rawKey: string }> {
    requireRole(actor, ['owner', 'admin']);
    const errors: string[] = [];
    if (!input.name || input.name.trim() === '') errors.push("Name can't be blank");
    if (input.hourlyLimit !== undefined && (!Number.isFinite(input.hourlyLimit) || input.hourlyLimit < 0)) errors.push('Hourly limit must be a non-negative number');
    let expiresAt: Date | undefined;
    if (input.expiresAt !== undefined) {
      expiresAt = new Date(input.expiresAt);
      if (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= Date.now()) errors.push('Expires at must be a future ISO8601 time');
    }
    if (errors.length > 0) throw new DomainError('VALIDATION_FAILED', errors.join(', '), { errors });
    const project = await this.projects.findOwned(actor, input.projectId);
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
   * Verifies `ak_<hex>.<secret>`: unknown, wrong secret, revoked, expired or paused keys are all
   * "Unauthorized" to the caller; `cause` tells edge which perimeter_block to record.
   */
  async verify(rawKey: string): Promise<KeyPrincipalView> {
    const dot = rawKey.indexOf('.');
    const id = dot > 0 ? rawKey.slice(0, dot) : '';
    const secret = dot > 0 ? rawKey.slice(dot + 1) : '';
    if (!/^ak_[0-9a-f]{4,64}$/.test(id) || !secret) throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
    const row = await this.db.apiKey.findUnique({ where: { id } });
    const expected = Buffer.from(row?.secretHash ?? '0'.repeat(64), 'hex');
    const actual = Buffer.from(hashSecret(secret), 'hex');
    const matches = expected.length === actual.length && timingSafeEqual(expected, actual);
    if (!row || !matches || row.status === 'revoked') throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
    if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
    const project = await this.db.project.findUnique({ where: { id: row.projectId } });
    if (!project) throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
    const budget = (project.settings as Record<string, unknown> | null)?.monthly_budget_usd;
    return {
      keyId: row.id,
      projectId: Number(row.projectId),
      organizationId: Number(row.organizationId),
      status: row.status,
      hourlyLimit: row.hourlyLimit,
      loopGuardExempt: row.loopGuardExempt,
      projectStatus: project.status,
      monthlyBudgetUsd: typeof budget === 'number' ? budget : null,
    };
  }

  async update(actor: SessionActor, keyId: string, patch: { status?: string; hourlyLimit?: number | null }): Promise<ApiKeyView> {
    requireRole(actor, ['owner', 'admin']);
    const row = await this.db.apiKey.findFirst({ where: { id: keyId, organizationId: BigInt(actor.organizationId), status: { not: 'revoked' } } });
    if (!row) throw new DomainError('NOT_FOUND', 'Not found');
    const errors: string[] = [];
    if (patch.status !== undefined && !(KEY_STATUSES as readonly string[]).includes(patch.status)) errors.push(`Status must be one of ${KEY_STATUSES.join(', ')}`);
    if (patch.hourlyLimit !== undefined && patch.hourlyLimit !== null && (!Number.isFinite(patch.hourlyLimit) || patch.hourlyLimit < 0)) errors.push('Hourly limit must be a non-negative number');
    if (errors.length > 0) throw new DomainError('VALIDATION_FAILED', errors.join(', '), { errors });
    const updated = await this.db.$transaction(async (tx) => {
      const next = await tx.apiKey.update({ where: { id: row.id }, data: { status: patch.status, hourlyLimit: patch.hourlyLimit } });
      await emitKeyChanged(tx, next);
      return next;
    });
    const project = await this.db.project.findUnique({ where: { id: updated.projectId } });
    return this.toView(updated, project?.name ?? '');
  }

  async revoke(actor: SessionActor, keyId: string): Promise<void> {
    requireRole(actor, ['owner', 'admin']);
    const row = await this.db.apiKey.findFirst({ where: { id: keyId, organizationId: BigInt(actor.organizationId), status: { not: 'revoked' } } });
    if (!row) throw new DomainError('NOT_FOUND', 'Not found');
    await this.db.$transaction(async (tx) => {
      const next = await tx.apiKey.update({ where: { id: row.id }, data: { status: 'revoked' } });
      await emitKeyChanged(tx, next);
    });
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
