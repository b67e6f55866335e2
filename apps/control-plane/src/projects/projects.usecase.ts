import { encodeEvent } from '@gateway/bus';
import { addToOutbox } from '@gateway/db';
import { DomainError } from '@gateway/errors';
import { events, Subjects } from '@gateway/proto';
import type { ControlPlaneDb } from '../database';
import type { Prisma, Project as ProjectRow } from '../generated/prisma/client';
import { requireRole, type SessionActor } from '../actor';
import { mergeSettings, validateSettings } from './project-settings';

export interface ProjectView {
  id: number;
  organizationId: number;
  name: string;
  description: string;
  status: string;
  settings: Record<string, unknown>;
  totalMonthlySpend: number;
  createdAt: string;
}

export type ProjectChange = 'created' | 'updated' | 'archived' | 'deleted' | 'models_changed';

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

export class ProjectsUseCase {
  constructor(private readonly db: ControlPlaneDb) {}

  /** Another organization's project is indistinguishable from a missing one (404). */
  async findOwned(actor: { organizationId: number }, projectId: number): Promise<ProjectRow> {
    const row = await this.db.project.findFirst({ where: { id: BigInt(projectId), organizationId: BigInt(actor.organizationId) } });
    if (!row) throw new DomainError('NOT_FOUND', 'Not found');
    return row;
  }

  async list(actor: SessionActor): Promise<ProjectView[]> {
    const rows = await this.db.project.findMany({ where: { organizationId: BigInt(actor.organizationId) }, orderBy: { id: 'asc' } });
    return rows.map((row) => toProjectView(row));
  }

  async get(actor: { organizationId: number }, projectId: number): Promise<ProjectView> {
    return toProjectView(await this.findOwned(actor, projectId));
  }

  /** For internal service callers only (the gRPC adapter checks the credential). */
  async getById(projectId: number): Promise<ProjectView> {
    const row = await this.db.project.findUnique({ where: { id: BigInt(projectId) } });
    if (!row) throw new DomainError('NOT_FOUND', 'Not found');
    return toProjectView(row);
  }

  async create(actor: SessionActor, input: { name: string; description: string; settings?: Record<string, unknown> }): Promise<ProjectView> {
    requireRole(actor, ['owner', 'admin']);
    if (!input.name || input.name.trim() === '') throw new DomainError('VALIDATION_FAILED', "Name can't be blank", { errors: ["Name can't be blank"] });
    const settings = input.settings ?? {};
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

  async update(actor: SessionActor, projectId: number, patch: { name?: string; description?: string; status?: string; settings?: Record<string, unknown> }): Promise<ProjectView> {
    const current = await this.findOwned(actor, projectId);
    if (patch.name !== undefined && patch.name.trim() === '') throw new DomainError('VALIDATION_FAILED', "Name can't be blank", { errors: ["Name can't be blank"] });
    if (patch.status !== undefined && !['active', 'archived'].includes(patch.status)) {
      throw new DomainError('VALIDATION_FAILED', 'Status must be active or archived', { errors: ['Status must be active or archived'] });
    }
    const settings = patch.settings ? mergeSettings((current.settings ?? {}) as Record<string, unknown>, patch.settings) : undefined;
    if (settings) {
      const models = await this.db.modelDefinition.findMany({ where: { projectId: current.id }, select: { identifier: true } });
      validateSettings(settings, new Set(models.map((m) => m.identifier)));
    }
    const row = await this.db.$transaction(async (tx) => {
      const updated = await tx.project.update({
        where: { id: current.id },
        data: {
          name: patch.name?.trim(),
          description: patch.description,
          status: patch.status,
          settings: settings as Prisma.InputJsonValue | undefined,
        },
      });
      await emitProjectChanged(tx, updated.id, updated.organizationId, patch.status === 'archived' ? 'archived' : 'updated');
      return updated;
    });
    return toProjectView(row);
  }
}
