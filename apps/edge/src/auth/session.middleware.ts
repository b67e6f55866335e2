import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DomainError, isDomainError } from '@gateway/errors';
import type { common } from '@gateway/proto';
import type { EdgeClients } from '../clients';
import { clientInfo, readCookie, SESSION_COOKIE } from './authenticate';

/**
 * Session credential (dashboard): the cookie's token resolved by control-plane on every request,
 * so a logout, expiry or role change applies at once. No cookie is 401 `Unauthorized`; a stale
 * or revoked session 401 `Token expired`; a tampered one 401 `Invalid token` (the cookie is
 * cleared in both cases).
 */
export function requireSession(clients: Pick<EdgeClients, 'controlPlane'>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const token = readCookie(req, SESSION_COOKIE);
    if (!token) {
      next(new DomainError('UNAUTHENTICATED', 'Unauthorized'));
      return;
    }
    clients.controlPlane.getSession({ sessionToken: token }).then(
      (session) => {
        const { ip, userAgent } = clientInfo(req);
        req.actor = { ...(session.actor as common.Actor), ip, userAgent };
        req.sessionToken = token;
        next();
      },
      (error: unknown) => {
        if (isDomainError(error) && (error.code === 'TOKEN_EXPIRED' || error.code === 'TOKEN_INVALID')) res.clearCookie(SESSION_COOKIE, { path: '/' });
        next(error);
      },
    );
  };
}
