import { Router } from 'express';
import { z } from 'zod';
import { clientInfo } from '../auth/authenticate';
import { requireSession } from '../auth/session.middleware';
import type { EdgeClients } from '../clients';
import { handle } from './async-handler';
import { inviteJson, userJson } from './serializers';
import { parseOr400 } from './validation';

export const inviteBody = z.object({
  email: z.string({ message: 'email is required' }).max(254),
  role: z.string({ message: 'role is required' }).max(32),
});
export const acceptBody = z.object({
  token: z.string({ message: 'token is required' }).min(1, 'token is required').max(512),
  password: z.string({ message: 'password is required' }).max(1_024),
  name: z.string({ message: 'name must be a string' }).max(1_000).optional(),
});

/**
 * Members (DESIGN.md "Credentials"):
 *   POST /api/v1/members {email, role} (admin/owner; only an owner invites an owner)
 *        → 201 {id, email, role, invite_token, expires_at}; audited as member_invited
 *   POST /api/v1/members/accept {token, password, name?} (no session) → 201 {user}
 */
export function memberRoutes(clients: EdgeClients): Router {
  const router = Router();
  const session = requireSession(clients);

  router.post('/api/v1/members', session, handle(async (req, res) => {
    const body = parseOr400(inviteBody, req.body);
    res.status(201).json(inviteJson(await clients.controlPlane.inviteMember({ actor: req.actor, email: body.email, role: body.role })));
  }));

  router.post('/api/v1/members/accept', handle(async (req, res) => {
    const body = parseOr400(acceptBody, req.body);
    const user = await clients.controlPlane.acceptInvite({ token: body.token, password: body.password, name: body.name ?? '', ...clientInfo(req) });
    res.status(201).json({ user: userJson(user) });
  }));
  return router;
}
