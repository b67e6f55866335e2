import { Router } from 'express';
import { z } from 'zod';
import { requireSession } from '../auth/session.middleware';
import type { EdgeClients } from '../clients';
import { handle } from './async-handler';
import { resourceId } from './projects.http';
import { modelJson } from './serializers';
import { parseOr400 } from './validation';

export const modelBody = z.object({ model_definition: z.record(z.string(), z.unknown(), { message: 'model_definition is required and must be an object' }) });

/**
 * Model registry of a project (session). Fields are validated by control-plane (422 with every
 * message); `api_key` is write-only (PATCH rotates it, null or "" clears it) and answers only as
 * `has_api_key`. DELETE answers 204; a model routing tiers or the shadow model use is refused (422).
 */
export function modelRoutes(clients: EdgeClients): Router {
  const router = Router();
  const session = requireSession(clients);
  const base = '/api/v1/projects/:project_id/models';

  router.get(base, session, handle(async (req, res) => {
    const { models } = await clients.controlPlane.listModels({ actor: req.actor, projectId: resourceId(req.params.project_id) });
    res.json(models.map(modelJson));
  }));

  router.post(base, session, handle(async (req, res) => {
    const projectId = resourceId(req.params.project_id);
    const { model_definition } = parseOr400(modelBody, req.body);
    const created = await clients.controlPlane.createModel({ actor: req.actor, projectId, modelId: 0, fields: model_definition });
    res.status(201).json(modelJson(created));
  }));

  router.get(`${base}/:model_id`, session, handle(async (req, res) => {
    res.json(modelJson(await clients.controlPlane.getModel({ actor: req.actor, projectId: resourceId(req.params.project_id), modelId: resourceId(req.params.model_id) })));
  }));

  router.patch(`${base}/:model_id`, session, handle(async (req, res) => {
    const projectId = resourceId(req.params.project_id);
    const modelId = resourceId(req.params.model_id);
    const { model_definition } = parseOr400(modelBody, req.body);
    res.json(modelJson(await clients.controlPlane.updateModel({ actor: req.actor, projectId, modelId, fields: model_definition })));
  }));

  router.delete(`${base}/:model_id`, session, handle(async (req, res) => {
    await clients.controlPlane.deleteModel({ actor: req.actor, projectId: resourceId(req.params.project_id), modelId: resourceId(req.params.model_id) });
    res.status(204).end();
  }));
  return router;
}
