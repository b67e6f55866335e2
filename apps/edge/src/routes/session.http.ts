import { Router } from 'express';
import { z } from 'zod';
import { clientInfo, SESSION_COOKIE } from '../auth/authenticate';
import { requireSession } from '../auth/session.middleware';
import type { EdgeClients } from '../clients';
import type { EdgeEnv } from '../env';
import { handle } from './async-handler';
import { userJson } from './serializers';
import { parseOr400 } from './validation';

export const loginBody = z.object({
  email: z.string({ message: 'email is required' }).min(1, 'email is required').max(254),
  password: z.string({ message: 'password is required' }).min(1, 'password is required').max(1024),
  otp: z.string({ message: 'otp must be a string of 6 digits' }).max(16).optional(),
});
export const codeBody = z.object({ code: z.string({ message: 'code is required' }).min(1, 'code is required').max(16) });
export const tokenBody = z.object({ token: z.string({ message: 'token is required' }).min(1, 'token is required').max(512) });

/**
 * Dashboard sessions (DESIGN.md "Credentials"):
 *   POST   /api/v1/session {email, password, otp?} → 201 {user, expires_at} + HttpOnly cookie;
 *          MFA enabled and no otp → 401 {error: "MFA code required", mfa_required: true};
 *          wrong password → 401 "Invalid email or password"; wrong otp → 401 "Invalid MFA code";
 *          throttled → 429 {error, code: "TOO_MANY_ATTEMPTS"} with Retry-After
 *   GET    /api/v1/session → {user, expires_at};  DELETE /api/v1/session → 204 (revoked)
 *   POST   /api/v1/session/mfa → {provisioning_uri, secret} (starts TOTP set-up)
 *   POST   /api/v1/session/mfa/verify {code} → 204 (activates, or passes a challenge)
 *   DELETE /api/v1/session/mfa {code} → 204
 *   POST   /api/v1/session/verify-email {token} → 204 (no session needed)
 */
export function sessionRoutes(clients: EdgeClients, env: EdgeEnv): Router {
  const router = Router();
  const session = requireSession(clients);
  const cookieOptions = { httpOnly: true, secure: env.SESSION_COOKIE_SECURE, sameSite: env.SESSION_COOKIE_SAMESITE.toLowerCase() as 'lax' | 'strict' | 'none', path: '/' };

  router.post('/api/v1/session', handle(async (req, res) => {
    const body = parseOr400(loginBody, req.body);
    const result = await clients.controlPlane.login({ email: body.email, password: body.password, otp: body.otp, ...clientInfo(req) });
    if (result.mfaRequired) {
      res.status(401).json({ error: 'MFA code required', mfa_required: true });
      return;
    }
    res.cookie(SESSION_COOKIE, result.sessionToken, { ...cookieOptions, expires: new Date(result.expiresAt) });
    res.status(201).json({ user: userJson(result.user!), expires_at: result.expiresAt });
  }));

  router.get('/api/v1/session', session, handle(async (req, res) => {
    const current = await clients.controlPlane.getSession({ sessionToken: req.sessionToken! });
    res.json({ user: userJson(current.user!), expires_at: current.expiresAt });
  }));

  router.delete('/api/v1/session', session, handle(async (req, res) => {
    await clients.controlPlane.logout({ sessionToken: req.sessionToken!, actor: req.actor });
    res.clearCookie(SESSION_COOKIE, cookieOptions);
    res.status(204).end();
  }));

  router.post('/api/v1/session/mfa', session, handle(async (req, res) => {
    const setup = await clients.controlPlane.enableMfa({ actor: req.actor, code: '' });
    res.json({ provisioning_uri: setup.provisioningUri, secret: setup.secret });
  }));

  router.post('/api/v1/session/mfa/verify', session, handle(async (req, res) => {
    const { code } = parseOr400(codeBody, req.body);
    await clients.controlPlane.verifyMfa({ actor: req.actor, code });
    res.status(204).end();
  }));

  router.delete('/api/v1/session/mfa', session, handle(async (req, res) => {
    const { code } = parseOr400(codeBody, req.body ?? {});
    await clients.controlPlane.disableMfa({ actor: req.actor, code });
    res.status(204).end();
  }));

  router.post('/api/v1/session/verify-email', handle(async (req, res) => {
    const { token } = parseOr400(tokenBody, req.body);
    await clients.controlPlane.verifyEmail({ token, ...clientInfo(req) });
    res.status(204).end();
  }));
  return router;
}
