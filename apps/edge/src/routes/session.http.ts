import { Router } from 'express';
import { z } from 'zod';
import { clientInfo, SESSION_COOKIE } from '../auth/authenticate';
import { requireSession } from '../auth/session.middleware';
import type { EdgeClients } from '../clients';
import type { EdgeEnv } from '../env';
import { handle } from './async-handler';
import { userJson } from './serializers';
import { parseOr400 } from './validation';

const loginBody = z.object({ email: z.string().min(1), password: z.string().min(1), otp: z.string().optional() });

export function sessionRoutes(clients: EdgeClients, env: EdgeEnv): Router {
  const router = Router();
  const cookieOptions = { httpOnly: true, secure: env.SESSION_COOKIE_SECURE, sameSite: env.SESSION_COOKIE_SAMESITE.toLowerCase() as 'lax' | 'strict' | 'none', path: '/' };

  router.post('/api/v1/session', handle(async (req, res) => {
    const body = parseOr400(loginBody, req.body);
    const result = await clients.controlPlane.login({ email: body.email, password: body.password, otp: body.otp, ...clientInfo(req) });
    res.cookie(SESSION_COOKIE, result.sessionToken, { ...cookieOptions, expires: new Date(result.expiresAt) });
    res.status(201).json({ user: userJson(result.user!), expires_at: result.expiresAt });
  }));

  router.get('/api/v1/session', requireSession(clients), handle(async (req, res) => {
    const session = await clients.controlPlane.getSession({ sessionToken: req.sessionToken! });
    res.json({ user: userJson(session.user!), expires_at: session.expiresAt });
  }));

  router.delete('/api/v1/session', requireSession(clients), handle(async (req, res) => {
    await clients.controlPlane.logout({ sessionToken: req.sessionToken!, actor: req.actor });
    res.clearCookie(SESSION_COOKIE, cookieOptions);
    res.status(204).end();
  }));
  return router;
}
