import type { CallContext, ServiceHandlers } from '@gateway/grpc';
import { DomainError } from '@gateway/errors';
import { controlplane } from '@gateway/proto';
import { requireUser } from './actor';
import type { SessionsUseCase, UserView } from './identity/sessions.usecase';
import type { ApiKeysUseCase, ApiKeyView } from './keys/api-keys.usecase';
import type { ModelsUseCase, ModelView } from './models/models.usecase';
import type { ProjectsUseCase, ProjectView } from './projects/projects.usecase';

export interface ControlPlaneUseCases {
  sessions: SessionsUseCase;
  projects: ProjectsUseCase;
  models: ModelsUseCase;
  keys: ApiKeysUseCase;
  keyCacheTtlMs: number;
}

const toUser = (user: UserView): controlplane.User => ({ ...user });

const toProject = (project: ProjectView): controlplane.Project => ({ ...project });

const toModel = (model: ModelView): controlplane.ModelDefinition => ({ ...model });

const toKey = (key: ApiKeyView): controlplane.ApiKey => ({
  ...key,
  hourlyLimit: key.hourlyLimit ?? undefined,
  expiresAt: key.expiresAt ?? undefined,
  lastUsed: key.lastUsed ?? undefined,
});

function requireService(ctx: CallContext): void {
  if (ctx.principal.kind !== 'service') throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
}

/** Thin adapter: proto in, one use case, proto out. */
export function controlPlaneHandlers(useCases: ControlPlaneUseCases): Partial<ServiceHandlers<typeof controlplane.ControlPlaneServiceService>> {
  const { sessions, projects, models, keys } = useCases;
  return {
    bootstrap: async (req, ctx) => {
      requireService(ctx);
      const result = await sessions.bootstrap(req.email, req.password, req.organizationName || 'Default organization');
      return { user: toUser(result.user), created: result.created };
    },
    login: async (req, ctx) => {
      requireService(ctx);
      const result = await sessions.login(req.email, req.password, { ip: req.ip, userAgent: req.userAgent });
      return { sessionToken: result.token, user: toUser(result.user), mfaRequired: false, expiresAt: result.expiresAt.toISOString() };
    },
    getSession: async (req, ctx) => {
      requireService(ctx);
      const { user, expiresAt } = await sessions.resolve(req.sessionToken);
      return {
        user: toUser(user),
        actor: { userId: user.id, organizationId: user.organizationId, role: user.role, keyId: '', ip: '', userAgent: '' },
        expiresAt: expiresAt.toISOString(),
      };
    },
    logout: async (req, ctx) => {
      requireService(ctx);
      await sessions.logout(req.sessionToken, { ip: req.actor?.ip ?? '', userAgent: req.actor?.userAgent ?? '' });
      return {};
    },
    listProjects: async (req) => ({ projects: (await projects.list(requireUser(req.actor))).map(toProject) }),
    createProject: async (req) => toProject(await projects.create(requireUser(req.actor), { name: req.name, description: req.description, settings: req.settings })),
    getProject: async (req) => toProject(await projects.get(requireUser(req.actor), req.projectId)),
    updateProject: async (req) =>
      toProject(await projects.update(requireUser(req.actor), req.projectId, { name: req.name, description: req.description, status: req.status, settings: req.settings })),
    getProjectPolicy: async (req, ctx) => {
      requireService(ctx);
      // Service callers (router, guardrail, agents) know the project id, not the organization.
      const project = await projects.getById(req.projectId);
      return { project: toProject(project), models: (await models.list(project, req.projectId)).map(toModel) };
    },
    listModels: async (req) => ({ models: (await models.list(requireUser(req.actor), req.projectId)).map(toModel) }),
    createModel: async (req) => toModel(await models.create(requireUser(req.actor), req.projectId, req.fields ?? {})),
    resolveModelCredentials: async (req, ctx) => {
      requireService(ctx);
      const resolved = await models.resolveCredentials(req.projectId, req.identifiers);
      return { models: resolved.map((entry) => ({ model: toModel(entry.model), apiKey: entry.apiKey })) };
    },
    listKeys: async (req) => ({ keys: (await keys.list(requireUser(req.actor))).map(toKey) }),
    createKey: async (req) => {
      const created = await keys.create(requireUser(req.actor), {
        name: req.name,
        projectId: req.projectId,
        hourlyLimit: req.hourlyLimit,
        expiresAt: req.expiresAt,
        loopGuardExempt: req.loopGuardExempt,
      });
      return { key: toKey(created.view), rawKey: created.rawKey };
    },
    updateKey: async (req) => toKey(await keys.update(requireUser(req.actor), req.keyId, { status: req.status, hourlyLimit: req.clearHourlyLimit ? null : req.hourlyLimit })),
    deleteKey: async (req) => {
      await keys.revoke(requireUser(req.actor), req.keyId);
      return {};
    },
    verifyApiKey: async (req, ctx) => {
      requireService(ctx);
      const principal = await keys.verify(req.rawKey);
      return { ...principal, hourlyLimit: principal.hourlyLimit ?? undefined, monthlyBudgetUsd: principal.monthlyBudgetUsd ?? undefined, cacheTtlMs: useCases.keyCacheTtlMs };
    },
  };
}
