import { z } from 'zod';
import { DomainError } from '@gateway/errors';
import type { ControlPlaneDb } from '../database';
import type { ModelDefinition as ModelRow, Prisma } from '../generated/prisma/client';
import { requireRole, type SessionActor } from '../actor';
import { emitProjectChanged, ProjectsUseCase } from '../projects/projects.usecase';
import type { SecretBox } from './secret-box';

export const PROVIDERS = ['openai', 'anthropic', 'gemini', 'bedrock', 'azure', 'internal'] as const;

const modelFieldsSchema = z
  .object({
    name: z.string().trim().min(1, "Name can't be blank"),
    identifier: z.string().trim().min(1, "Identifier can't be blank").max(200),
    provider: z.enum(PROVIDERS, { message: `Provider must be one of ${PROVIDERS.join(', ')}` }),
    base_url: z.union([z.string().url('Base url must be a URL'), z.literal('')]),
    api_key: z.string().max(4096),
    is_public: z.boolean(),
    input_cost_per_1k: z.number({ message: 'Input cost per 1k must be a number' }).nonnegative('Input cost per 1k must be non-negative'),
    output_cost_per_1k: z.number({ message: 'Output cost per 1k must be a number' }).nonnegative('Output cost per 1k must be non-negative'),
    data_retention_days: z.number().int().positive(),
    region_restriction: z.string().min(1),
    currency: z.string().regex(/^[A-Z]{3}$/, 'Currency must be a 3-letter code'),
    additional_config: z.record(z.string(), z.unknown()),
  })
  .partial();

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

export class ModelsUseCase {
  constructor(private readonly db: ControlPlaneDb, private readonly projects: ProjectsUseCase, private readonly secrets: SecretBox) {}

  async list(actor: { organizationId: number }, projectId: number): Promise<ModelView[]> {
    const project = await this.projects.findOwned(actor, projectId);
    const rows = await this.db.modelDefinition.findMany({ where: { projectId: project.id }, orderBy: { id: 'asc' } });
    return rows.map(toModelView);
  }

  async create(actor: SessionActor, projectId: number, fields: Record<string, unknown>): Promise<ModelView> {
    requireRole(actor, ['owner', 'admin']);
    const project = await this.projects.findOwned(actor, projectId);
    const parsed = modelFieldsSchema.safeParse(fields);
    const errors = parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
    if (parsed.success) {
      if (!parsed.data.name) errors.push("Name can't be blank");
      if (!parsed.data.identifier) errors.push("Identifier can't be blank");
      if (!parsed.data.provider) errors.push(`Provider must be one of ${PROVIDERS.join(', ')}`);
    }
    if (errors.length > 0 || !parsed.success) throw new DomainError('VALIDATION_FAILED', errors.join(', '), { errors });
    const data = parsed.data;
    const duplicate = await this.db.modelDefinition.findFirst({ where: { projectId: project.id, identifier: data.identifier! } });
    if (duplicate) throw new DomainError('VALIDATION_FAILED', 'Identifier has already been taken', { errors: ['Identifier has already been taken'] });
    const sealed = data.api_key ? this.secrets.encrypt(data.api_key) : undefined;
    const row = await this.db.$transaction(async (tx) => {
      const created = await tx.modelDefinition.create({
        data: {
          projectId: project.id,
          name: data.name!,
          identifier: data.identifier!,
          provider: data.provider!,
          baseUrl: data.base_url ?? '',
          apiKeyCiphertext: sealed?.ciphertext,
          apiKeyKeyId: sealed?.keyId,
          isPublic: data.is_public ?? true,
          inputCostPer1k: data.input_cost_per_1k ?? 0,
          outputCostPer1k: data.output_cost_per_1k ?? 0,
          dataRetentionDays: data.data_retention_days ?? 30,
          regionRestriction: data.region_restriction ?? 'global',
          currency: data.currency ?? 'USD',
          additionalConfig: (data.additional_config ?? {}) as Prisma.InputJsonValue,
        },
      });
      await emitProjectChanged(tx, project.id, project.organizationId, 'models_changed');
      return created;
    });
    return toModelView(row);
  }

  /** Decrypted credentials for provider-proxy (internal callers only). */
  async resolveCredentials(projectId: number, identifiers: string[]): Promise<{ model: ModelView; apiKey: string }[]> {
    const rows = await this.db.modelDefinition.findMany({ where: { projectId: BigInt(projectId), identifier: { in: identifiers } } });
    return rows.map((row) => ({
      model: toModelView(row),
      apiKey: row.apiKeyCiphertext && row.apiKeyKeyId ? this.secrets.decrypt(row.apiKeyKeyId, row.apiKeyCiphertext) : '',
    }));
  }
}
