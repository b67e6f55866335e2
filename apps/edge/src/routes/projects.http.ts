import { Router } from 'express';
import { z } from 'zod';
import { DomainError } from '@gateway/errors';
import { requireSession } from '../auth/session.middleware';
import type { EdgeClients } from '../clients';
import { handle } from './async-handler';
import { projectJson } from './serializers';
import { parseOr400 } from './validation';

export const projectBody = z.object({
  project: z.object(
    {
      name: z.string({ message: 'project.name must be a string' }).optional(),
      description: z.string({ message: 'project.description must be a string' }).optional(),
      status: z.string({ message: 'project.status must be a string' }).optional(),
      settings: z.record(z.string(), z.unknown(), { message: 'project.settings must be an object' }).optional(),
    },
    { message: 'project is required and must be an object' },
  ),
});

/** A path id that is not a positive integer names nothing: 404 like a missing resource. */
export function resourceId(value: unknown): number {
  const text = String(value);
  const id = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw new DomainError('NOT_FOUND', 'Not found');
  return id;
}

/**
 * Projects (session): every member sees the organization's projects; create, PATCH and DELETE
 * need admin or owner (403 otherwise). Another organization's project answers 404.
 */
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
    res.json(projectJson(await clients.controlPlane.getProject({ actor: req.actor, projectId: resourceId(req.params.id) })));
  }));

  router.patch('/api/v1/projects/:id', session, handle(async (req, res) => {
    const projectId = resourceId(req.params.id);
    const { project } = parseOr400(projectBody, req.body);
    const updated = await clients.controlPlane.updateProject({ actor: req.actor, projectId, ...project, settings: project.settings });
    res.json(projectJson(updated));
  }));

  router.delete('/api/v1/projects/:id', session, handle(async (req, res) => {
    await clients.controlPlane.deleteProject({ actor: req.actor, projectId: resourceId(req.params.id) });
    res.status(204).end();
  }));
  return router;
}
