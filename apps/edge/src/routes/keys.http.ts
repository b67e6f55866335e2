import { Router } from 'express';
import { z } from 'zod';
import { DomainError } from '@gateway/errors';
import { requireSession } from '../auth/session.middleware';
import type { EdgeClients } from '../clients';
import { handle } from './async-handler';
import { keyJson } from './serializers';
import { parseOr400 } from './validation';

// Shapes only (400 for a missing project_id or a wrong type); values are validated by
// control-plane (422: blank name, negative hourly_limit, expires_at not a future ISO8601 time).
export const createBody = z.object({
  name: z.string({ message: 'name must be a string' }).max(1_000).optional(),
  project_id: z.number({ message: 'project_id is required' }).int('project_id must be an integer'),
  hourly_limit: z.number({ message: 'hourly_limit must be a number' }).nullable().optional(),
  expires_at: z.string({ message: 'expires_at must be an ISO8601 string' }).max(64).nullable().optional(),
  loop_guard_exempt: z.boolean({ message: 'loop_guard_exempt must be true or false' }).optional(),
});

export const patchFields = z
  .object({
    status: z.string({ message: 'status must be a string' }).max(32).optional(),
    hourly_limit: z.number({ message: 'hourly_limit must be a number or null' }).nullable().optional(),
  })
  .strict();
// DESIGN.md: PATCH accepts the fields plain or wrapped as {key: {...}}.
export const patchBody = z.union([z.object({ key: patchFields }).strict(), patchFields], { message: 'body must be {status?, hourly_limit?} or {key: {...}}' });

/**
 * API keys of the organization (session). Listing: any member; create, PATCH and DELETE: admin
 * or owner. `raw_key` is answered once, at creation. DELETE revokes (204).
 */
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
      name: body.name ?? '',
      projectId: body.project_id,
      hourlyLimit: body.hourly_limit ?? undefined,
      expiresAt: body.expires_at ?? undefined,
      loopGuardExempt: body.loop_guard_exempt ?? false,
    });
    res.status(201).json({ ...keyJson(created.key!), raw_key: created.rawKey });
  }));

  router.patch('/api/v1/keys/:id', session, handle(async (req, res) => {
    const parsed = parseOr400(patchBody, req.body);
    const fields = 'key' in parsed ? parsed.key : parsed;
    if (fields.status === undefined && fields.hourly_limit === undefined) throw new DomainError('BAD_REQUEST', 'status or hourly_limit is required');
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
