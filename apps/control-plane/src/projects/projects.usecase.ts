import { encodeEvent } from '@gateway/bus';
import { addToOutbox } from '@gateway/db';
import { DomainError } from '@gateway/errors';
import { events, Subjects } from '@gateway/proto';
import type { ControlPlaneDb } from '../database';
import type { Prisma, Project as ProjectRow } from '../generated/prisma/client';
import { requireRole, type Scope, type SessionActor } from '../actor';
import { emitKeyChanged } from '../keys/key-events';
import { currentMonthSpend } from '../spend/monthly-spend.repository';
import { isPlainObject, mergeSettings, validateSettings } from './project-settings';

export interface ProjectView {
  id: number;
  organizationId: number;
  name: string;
  description: string;
  status: string;
  settings: Record<string, unknown>;
  /** USD spent in the current UTC month (from step.recorded events). */
  totalMonthlySpend: number;
  createdAt: string;
}

export type ProjectChange = 'created' | 'updated' | 'archived' | 'deleted' | 'models_changed';
export const PROJECT_STATUSES = ['active', 'archived'] as const;
const NAME_MAX = 200;
const DESCRIPTION_MAX = 10_000;

export async function emitProjectChanged(tx: Prisma.TransactionClient, projectId: bigint, organizationId: bigint, change: ProjectChange): Promise<void> {
  await addToOutbox(tx, encodeEvent(Subjects.projectChanged, events.ProjectChanged, { projectId: Number(projectId), organizationId: Number(organizationId), change }));
}

export function toProjectView(row: ProjectRow, totalMonthlySpend = 0): ProjectView {
  return {
    id: Number(row.id),
    organizationId: Number(row.organizationId),
    name: row.name,
    description: row.description,
    status: row.status,
    settings: (row.settings ?? {}) as Record<string, unknown>,
    totalMonthlySpend,
    createdAt: row.createdAt.toISOString(),
  };
}

function nameErrors(name: string | undefined): string[] {
  if (name === undefined || name.trim() === '') return ["Name can't be blank"];
  if (name.trim().length > NAME_MAX) return [`Name is too long (maximum is ${NAME_MAX} characters)`];
  return [];
}

function fail(errors: string[]): never {
  throw new DomainError('VALIDATION_FAILED', errors.join(', '), { errors });
}

/**
 * Projects of an organization. Every member of the organization sees all of its projects
 * (there is no per-project membership); creating, changing and deleting need admin or owner.
 * An API key sees only its own project. Another organization's project is indistinguishable
 * from a missing one (404).
 */
export class ProjectsUseCase {
  constructor(private readonly db: ControlPlaneDb) {}

  async findOwned(scope: Scope, projectId: number): Promise<ProjectRow> {
    if (!Number.isSafeInteger(projectId) || projectId <= 0) throw new DomainError('NOT_FOUND', 'Not found');
    if (scope.keyProjectId !== undefined && scope.keyProjectId !== projectId) throw new DomainError('NOT_FOUND', 'Not found');
    const row = await this.db.project.findFirst({ where: { id: BigInt(projectId), organizationId: BigInt(scope.organizationId) } });
    if (!row) throw new DomainError('NOT_FOUND', 'Not found');
    return row;
  }

  async list(scope: Scope): Promise<ProjectView[]> {
    const rows = await this.db.project.findMany({
      where: { organizationId: BigInt(scope.organizationId), ...(scope.keyProjectId !== undefined ? { id: BigInt(scope.keyProjectId) } : {}) },
      orderBy: { id: 'asc' },
    });
    return this.withSpend(rows);
  }

  async get(scope: Scope, projectId: number): Promise<ProjectView> {
    return (await this.withSpend([await this.findOwned(scope, projectId)]))[0];
  }

  /** For internal service callers only (the gRPC adapter checks the credential). */
  async getById(projectId: number): Promise<ProjectView> {
    const row = Number.isSafeInteger(projectId) && projectId > 0 ? await this.db.project.findUnique({ where: { id: BigInt(projectId) } }) : null;
    if (!row) throw new DomainError('NOT_FOUND', 'Not found');
    return (await this.withSpend([row]))[0];
  }

  async create(actor: SessionActor, input: { name: string; description: string; settings?: Record<string, unknown> }): Promise<ProjectView> {
    requireRole(actor, ['owner', 'admin']);
    const errors = nameErrors(input.name);
    if ((input.description ?? '').length > DESCRIPTION_MAX) errors.push(`Description is too long (maximum is ${DESCRIPTION_MAX} characters)`);
    if (errors.length > 0) fail(errors);
    const settings = input.settings ?? {};
    // A new project has no models yet, so routing tiers cannot name one.
    validateSettings(settings, new Set());
    const row = await this.db.$transaction(async (tx) => {
      const created = await tx.project.create({
        data: { organizationId: BigInt(actor.organizationId), name: input.name.trim(), description: input.description ?? '', settings: settings as Prisma.InputJsonValue },
      });
      await emitProjectChanged(tx, created.id, created.organizationId, 'created');
      return created;
    });
    return toProjectView(row);
  }

  /**
   * PATCH: name, description, status (active | archived) and settings, which merge into the
   * stored ones (keys not sent are preserved, nested objects too; null clears a key's value).
   * An archived project keeps its data and keys but refuses new traces and executions at edge
   * (KeyPrincipal.project_status); setting it active again lifts that.
   */
  async update(actor: SessionActor, projectId: number, patch: { name?: string; description?: string; status?: string; settings?: Record<string, unknown> }): Promise<ProjectView> {
    requireRole(actor, ['owner', 'admin']);
    const current = await this.findOwned(actor, projectId);
    const errors: string[] = [];
    if (patch.name !== undefined) errors.push(...nameErrors(patch.name));
    if (patch.description !== undefined && patch.description.length > DESCRIPTION_MAX) errors.push(`Description is too long (maximum is ${DESCRIPTION_MAX} characters)`);
    if (patch.status !== undefined && !(PROJECT_STATUSES as readonly string[]).includes(patch.status)) errors.push('Status must be active or archived');
    if (patch.settings !== undefined && !isPlainObject(patch.settings)) errors.push('Settings must be an object');
    if (errors.length > 0) fail(errors);
    const settings = patch.settings ? mergeSettings((current.settings ?? {}) as Record<string, unknown>, patch.settings) : undefined;
    if (settings) {
      const models = await this.db.modelDefinition.findMany({ where: { projectId: current.id }, select: { identifier: true } });
      validateSettings(settings, new Set(models.map((m) => m.identifier)));
    }
    const row = await this.db.$transaction(async (tx) => {
      const updated = await tx.project.update({
        where: { id: current.id },
        data: { name: patch.name?.trim(), description: patch.description, status: patch.status, settings: settings as Prisma.InputJsonValue | undefined },
      });
      const change: ProjectChange = patch.status === 'archived' && current.status !== 'archived' ? 'archived' : 'updated';
      await emitProjectChanged(tx, updated.id, updated.organizationId, change);
      return updated;
    });
    return (await this.withSpend([row]))[0];
  }

  /**
   * Deletes the project with its models, keys and spend, in one transaction that also queues a
   * key.changed (revoked) per key, so every edge drops them at once, and project.changed
   * (deleted), on which the data-owning services (ledger, analytics, ...) delete theirs.
   */
  async delete(actor: SessionActor, projectId: number): Promise<void> {
    requireRole(actor, ['owner', 'admin']);
    const project = await this.findOwned(actor, projectId);
    await this.db.$transaction(async (tx) => {
      const keys = await tx.apiKey.findMany({ where: { projectId: project.id } });
      await tx.apiKey.deleteMany({ where: { projectId: project.id } });
      await tx.modelDefinition.deleteMany({ where: { projectId: project.id } });
      await tx.projectMonthlySpend.deleteMany({ where: { projectId: project.id } });
      await tx.project.delete({ where: { id: project.id } });
      for (const key of keys) if (key.status !== 'revoked') await emitKeyChanged(tx, key, { status: 'revoked' });
      await emitProjectChanged(tx, project.id, project.organizationId, 'deleted');
    });
  }

  private async withSpend(rows: ProjectRow[]): Promise<ProjectView[]> {
    const spend = await currentMonthSpend(this.db, rows.map((row) => row.id));
    return rows.map((row) => toProjectView(row, spend.get(row.id) ?? 0));
  }
}
