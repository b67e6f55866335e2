import { Router } from 'express';
import { z } from 'zod';
import { DomainError } from '@gateway/errors';
import { requireSession } from '../auth/session.middleware';
import type { EdgeClients } from '../clients';
import { handle } from './async-handler';
import { modelJson, projectJson } from './serializers';
import { idParam, parseOr400 } from './validation';

const projectBody = z.object({
  project: z.object({
    name: z.string().optional(),
    description: z.string().optional(),
    status: z.string().optional(),
    settings: z.record(z.string(), z.unknown()).optional(),
  }, { message: 'project must be an object' }),
});

const modelBody = z.object({ model_definition: z.record(z.string(), z.unknown(), { message: 'model_definition must be an object' }) });

export function projectRoutes(clients: EdgeClients): Router {
  const router = Router();
  const session = requireSession(clients);

  router.get('/api/v1/projects', session, handle(async (req, res) => {
    const { projects } = await clients.controlPlane.listProjects({ actor: req.actor });
    res.json(projects.map(projectJson));
  }));

  router.post('/api/v1/projects', session, handle(async (req, res) => {
    const { project } = parseOr400(projectBody, req.body);
    const created = await clients.controlPlane.createProject({ actor: req.actor, name: project.name ?? '', description: project.description ?? '', settings: project.settings });
    res.status(201).json(projectJson(created));
  }));

  router.get('/api/v1/projects/:id', session, handle(async (req, res) => {
    const projectId = parseOr400(idParam, req.params.id);
    res.json(projectJson(await clients.controlPlane.getProject({ actor: req.actor, projectId })));
  }));

  router.patch('/api/v1/projects/:id', session, handle(async (req, res) => {
    const projectId = parseOr400(idParam, req.params.id);
    const { project } = parseOr400(projectBody, req.body);
    const updated = await clients.controlPlane.updateProject({ actor: req.actor, projectId, ...project, settings: project.settings });
    res.json(projectJson(updated));
  }));

  router.get('/api/v1/projects/:id/models', session, handle(async (req, res) => {
    const projectId = parseOr400(idParam, req.params.id);
    const { models } = await clients.controlPlane.listModels({ actor: req.actor, projectId });
    res.json(models.map(modelJson));
  }));

  router.post('/api/v1/projects/:id/models', session, handle(async (req, res) => {
    const projectId = parseOr400(idParam, req.params.id);
    const { model_definition } = parseOr400(modelBody, req.body);
    if (Object.keys(model_definition).length === 0) throw new DomainError('BAD_REQUEST', 'model_definition is required');
    const created = await clients.controlPlane.createModel({ actor: req.actor, projectId, modelId: 0, fields: model_definition });
    res.status(201).json(modelJson(created));
  }));
  return router;
}
