import { DomainError } from '@gateway/errors';
import type { ControlPlaneDb } from '../database';
import { Prisma, type ModelDefinition as ModelRow } from '../generated/prisma/client';
import { requireRole, type Scope, type SessionActor } from '../actor';
import { referencedModels } from '../projects/project-settings';
import { emitProjectChanged, type ProjectsUseCase } from '../projects/projects.usecase';
import { parseModelFields, type ModelFields } from './model-fields';
import type { SecretBox } from './secret-box';

export { PROVIDERS } from './model-fields';

export interface ModelView {
  id: number;
  projectId: number;
  name: string;
  identifier: string;
  provider: string;
  baseUrl: string;
  hasApiKey: boolean;
  isPublic: boolean;
  inputCostPer1k: number;
  outputCostPer1k: number;
  dataRetentionDays: number;
  regionRestriction: string;
  currency: string;
  additionalConfig: Record<string, unknown>;
  fallbackIdentifier: string;
  createdAt: string;
  updatedAt: string;
}

/** The wire view: never the key, only whether one is stored. */
export function toModelView(row: ModelRow): ModelView {
  const additionalConfig = (row.additionalConfig ?? {}) as Record<string, unknown>;
  const fallback = additionalConfig.fallback_identifier;
  return {
    id: Number(row.id),
    projectId: Number(row.projectId),
    name: row.name,
    identifier: row.identifier,
    provider: row.provider,
    baseUrl: row.baseUrl,
    hasApiKey: Boolean(row.apiKeyCiphertext),
    isPublic: row.isPublic,
    inputCostPer1k: row.inputCostPer1k,
    outputCostPer1k: row.outputCostPer1k,
    dataRetentionDays: row.dataRetentionDays,
    regionRestriction: row.regionRestriction,
    currency: row.currency,
    additionalConfig,
    fallbackIdentifier: typeof fallback === 'string' ? fallback : '',
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const taken = () => new DomainError('VALIDATION_FAILED', 'Identifier has already been taken', { errors: ['Identifier has already been taken'] });

/**
 * The model registry of a project. Reads: any member (and an API key, its own project); writes:
 * admin or owner. `api_key` is write-only: sealed with AES-256-GCM (SecretBox, key id stored for
 * rotation), never returned or logged; PATCH with a new value rotates it, null or "" clears it.
 * Every change publishes project.changed (models_changed) so cached policies refresh. A model
 * that routing tiers or the shadow model name can be neither deleted nor renamed (422).
 */
export class ModelsUseCase {
  constructor(private readonly db: ControlPlaneDb, private readonly projects: ProjectsUseCase, private readonly secrets: SecretBox) {}

  async list(scope: Scope, projectId: number): Promise<ModelView[]> {
    const project = await this.projects.findOwned(scope, projectId);
    const rows = await this.db.modelDefinition.findMany({ where: { projectId: project.id }, orderBy: { id: 'asc' } });
    return rows.map(toModelView);
  }

  async get(scope: Scope, projectId: number, modelId: number): Promise<ModelView> {
    const project = await this.projects.findOwned(scope, projectId);
    return toModelView(await this.findModel(project.id, modelId));
  }

  async create(actor: SessionActor, projectId: number, input: Record<string, unknown>): Promise<ModelView> {
    requireRole(actor, ['owner', 'admin']);
    const project = await this.projects.findOwned(actor, projectId);
    const { fields, errors } = parseModelFields(input, 'create');
    if (errors.length > 0) throw new DomainError('VALIDATION_FAILED', errors.join(', '), { errors });
    if (await this.db.modelDefinition.findFirst({ where: { projectId: project.id, identifier: fields.identifier! } })) throw taken();
    const sealed = fields.api_key ? this.secrets.encrypt(fields.api_key) : undefined;
    const row = await this.write(async (tx) => {
      const created = await tx.modelDefinition.create({
        data: {
          projectId: project.id,
          name: fields.name!,
          identifier: fields.identifier!,
          provider: fields.provider!,
          baseUrl: fields.base_url ?? '',
          apiKeyCiphertext: sealed?.ciphertext,
          apiKeyKeyId: sealed?.keyId,
          isPublic: fields.is_public ?? true,
          inputCostPer1k: fields.input_cost_per_1k ?? 0,
          outputCostPer1k: fields.output_cost_per_1k ?? 0,
          dataRetentionDays: fields.data_retention_days ?? 30,
          regionRestriction: fields.region_restriction ?? 'global',
          currency: fields.currency ?? 'USD',
          additionalConfig: (fields.additional_config ?? {}) as Prisma.InputJsonValue,
        },
      });
      await emitProjectChanged(tx, project.id, project.organizationId, 'models_changed');
      return created;
    });
    return toModelView(row);
  }

  async update(actor: SessionActor, projectId: number, modelId: number, input: Record<string, unknown>): Promise<ModelView> {
    requireRole(actor, ['owner', 'admin']);
    const project = await this.projects.findOwned(actor, projectId);
    const current = await this.findModel(project.id, modelId);
    const { fields, errors } = parseModelFields(input, 'update');
    if (errors.length > 0) throw new DomainError('VALIDATION_FAILED', errors.join(', '), { errors });
    if (fields.identifier !== undefined && fields.identifier !== current.identifier) {
      this.refuseIfReferenced(project.settings, current.identifier, 'renamed');
      if (await this.db.modelDefinition.findFirst({ where: { projectId: project.id, identifier: fields.identifier } })) throw taken();
    }
    const row = await this.write(async (tx) => {
      const updated = await tx.modelDefinition.update({ where: { id: current.id }, data: { ...this.columns(fields), updatedAt: new Date() } });
      await emitProjectChanged(tx, project.id, project.organizationId, 'models_changed');
      return updated;
    });
    return toModelView(row);
  }

  async delete(actor: SessionActor, projectId: number, modelId: number): Promise<void> {
    requireRole(actor, ['owner', 'admin']);
    const project = await this.projects.findOwned(actor, projectId);
    const current = await this.findModel(project.id, modelId);
    this.refuseIfReferenced(project.settings, current.identifier, 'deleted');
    await this.db.$transaction(async (tx) => {
      await tx.modelDefinition.delete({ where: { id: current.id } });
      await emitProjectChanged(tx, project.id, project.organizationId, 'models_changed');
    });
  }

  /** Decrypted credentials for provider-proxy (internal callers only). */
  async resolveCredentials(projectId: number, identifiers: string[]): Promise<{ model: ModelView; apiKey: string }[]> {
    if (!Number.isSafeInteger(projectId) || projectId <= 0) return [];
    const rows = await this.db.modelDefinition.findMany({ where: { projectId: BigInt(projectId), identifier: { in: identifiers } } });
    return rows.map((row) => ({
      model: toModelView(row),
      apiKey: row.apiKeyCiphertext && row.apiKeyKeyId ? this.secrets.decrypt(row.apiKeyKeyId, row.apiKeyCiphertext) : '',
    }));
  }

  private async findModel(projectId: bigint, modelId: number): Promise<ModelRow> {
    const row = Number.isSafeInteger(modelId) && modelId > 0 ? await this.db.modelDefinition.findFirst({ where: { id: BigInt(modelId), projectId } }) : null;
    if (!row) throw new DomainError('NOT_FOUND', 'Not found');
    return row;
  }

  private refuseIfReferenced(settings: unknown, identifier: string, verb: string): void {
    const where = referencedModels((settings ?? {}) as Record<string, unknown>).get(identifier);
    if (where) {
      const message = `Model ${identifier} is used by ${where.join(', ')} and cannot be ${verb}; change the project settings first`;
      throw new DomainError('VALIDATION_FAILED', message, { errors: [message] });
    }
  }

  private columns(fields: ModelFields): Prisma.ModelDefinitionUpdateInput {
    const data: Prisma.ModelDefinitionUpdateInput = {
      name: fields.name,
      identifier: fields.identifier,
      provider: fields.provider,
      baseUrl: fields.base_url,
      isPublic: fields.is_public,
      inputCostPer1k: fields.input_cost_per_1k,
      outputCostPer1k: fields.output_cost_per_1k,
      dataRetentionDays: fields.data_retention_days,
      regionRestriction: fields.region_restriction,
      currency: fields.currency,
      additionalConfig: fields.additional_config as Prisma.InputJsonValue | undefined,
    };
    if (fields.api_key === null) Object.assign(data, { apiKeyCiphertext: null, apiKeyKeyId: null });
    else if (typeof fields.api_key === 'string') {
      const sealed = this.secrets.encrypt(fields.api_key);
      Object.assign(data, { apiKeyCiphertext: sealed.ciphertext, apiKeyKeyId: sealed.keyId });
    }
    return data;
  }

  /** Runs a registry write; a concurrent insert of the same identifier is the same 422. */
  private async write<T>(fn: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
    try {
      return await this.db.$transaction(fn);
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') throw taken();
      throw error;
    }
  }
}
