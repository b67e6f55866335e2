import { Router } from 'express';
import { z } from 'zod';
import { requireSession } from '../auth/session.middleware';
import type { EdgeClients } from '../clients';
import { handle } from './async-handler';
import { keyJson } from './serializers';
import { parseOr400 } from './validation';

const createBody = z.object({
  name: z.string({ message: 'name is required' }),
  project_id: z.number({ message: 'project_id is required' }).int().positive(),
  hourly_limit: z.number().nonnegative().nullable().optional(),
  expires_at: z.string().optional(),
  loop_guard_exempt: z.boolean().optional(),
});

const patchFields = z.object({ status: z.string().optional(), hourly_limit: z.number().nonnegative().nullable().optional() }).strict();
// DESIGN.md: PATCH accepts the fields plain or wrapped as {key: {...}}.
const patchBody = z.union([z.object({ key: patchFields }).strict(), patchFields]);

export function keyRoutes(clients: EdgeClients): Router {
  const router = Router();
  const session = requireSession(clients);

  router.get('/api/v1/keys', session, handle(async (req, res) => {
    const { keys } = await clients.controlPlane.listKeys({ actor: req.actor });
    res.json(keys.map(keyJson));
  }));

  router.post('/api/v1/keys', session, handle(async (req, res) => {
    const body = parseOr400(createBody, req.body);
    const created = await clients.controlPlane.createKey({
      actor: req.actor,
      name: body.name,
      projectId: body.project_id,
      hourlyLimit: body.hourly_limit ?? undefined,
      expiresAt: body.expires_at,
      loopGuardExempt: body.loop_guard_exempt ?? false,
    });
    res.status(201).json({ ...keyJson(created.key!), raw_key: created.rawKey });
  }));

  router.patch('/api/v1/keys/:id', session, handle(async (req, res) => {
    const parsed = parseOr400(patchBody, req.body);
    const fields = 'key' in parsed ? parsed.key : parsed;
    const updated = await clients.controlPlane.updateKey({
      actor: req.actor,
      keyId: String(req.params.id),
      status: fields.status,
      hourlyLimit: fields.hourly_limit ?? undefined,
      clearHourlyLimit: fields.hourly_limit === null,
    });
    res.json(keyJson(updated));
  }));

  router.delete('/api/v1/keys/:id', session, handle(async (req, res) => {
    await clients.controlPlane.deleteKey({ actor: req.actor, keyId: String(req.params.id) });
    res.status(204).end();
  }));
  return router;
}
