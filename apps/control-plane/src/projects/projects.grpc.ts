import type { ServiceHandlers } from '@gateway/grpc';
import type { controlplane } from '@gateway/proto';
import { callerOf, requireService, userOf } from '../grpc-callers';
import type { ModelsUseCase, ModelView } from '../models/models.usecase';
import type { ProjectsUseCase, ProjectView } from './projects.usecase';

type Handlers = ServiceHandlers<typeof controlplane.ControlPlaneServiceService>;
type ProjectMethods =
  | 'listProjects' | 'createProject' | 'getProject' | 'updateProject' | 'deleteProject' | 'getProjectPolicy'
  | 'listModels' | 'createModel' | 'getModel' | 'updateModel' | 'deleteModel' | 'resolveModelCredentials';

const toProject = (project: ProjectView): controlplane.Project => ({ ...project });
const toModel = (model: ModelView): controlplane.ModelDefinition => ({ ...model });

export function projectHandlers(useCases: { projects: ProjectsUseCase; models: ModelsUseCase }): Pick<Handlers, ProjectMethods> {
  const { projects, models } = useCases;
  return {
    listProjects: async (req, ctx) => ({ projects: (await projects.list(callerOf(req.actor, ctx))).map(toProject) }),
    createProject: async (req, ctx) => toProject(await projects.create(userOf(req.actor, ctx), { name: req.name, description: req.description, settings: req.settings })),
    getProject: async (req, ctx) => toProject(await projects.get(callerOf(req.actor, ctx), req.projectId)),
    updateProject: async (req, ctx) =>
      toProject(await projects.update(userOf(req.actor, ctx), req.projectId, { name: req.name, description: req.description, status: req.status, settings: req.settings })),
    deleteProject: async (req, ctx) => {
      await projects.delete(userOf(req.actor, ctx), req.projectId);
      return {};
    },
    getProjectPolicy: async (req, ctx) => {
      // Service callers (router, guardrail, agents) know the project id, not the organization;
      // an API key reads its own project only.
      const project = ctx.principal.kind === 'service' ? await projects.getById(req.projectId) : await projects.get(callerOf(req.actor, ctx), req.projectId);
      return { project: toProject(project), models: (await models.list(project, req.projectId)).map(toModel) };
    },
    listModels: async (req, ctx) => ({ models: (await models.list(callerOf(req.actor, ctx), req.projectId)).map(toModel) }),
    createModel: async (req, ctx) => toModel(await models.create(userOf(req.actor, ctx), req.projectId, req.fields ?? {})),
    getModel: async (req, ctx) => toModel(await models.get(callerOf(req.actor, ctx), req.projectId, req.modelId)),
    updateModel: async (req, ctx) => toModel(await models.update(userOf(req.actor, ctx), req.projectId, req.modelId, req.fields ?? {})),
    deleteModel: async (req, ctx) => {
      await models.delete(userOf(req.actor, ctx), req.projectId, req.modelId);
      return {};
    },
    resolveModelCredentials: async (req, ctx) => {
      requireService(ctx);
      const resolved = await models.resolveCredentials(req.projectId, req.identifiers);
      return { models: resolved.map((entry) => ({ model: toModel(entry.model), apiKey: entry.apiKey })) };
    },
  };
}
