import type { RequestHandler } from 'express';
import { DomainError } from '@gateway/errors';
import type { common } from '@gateway/proto';
import type { EdgeClients } from '../clients';
import { clientInfo, readCookie, SESSION_COOKIE, wrap } from './authenticate';

/** Session credential (dashboard): the cookie's token resolved by control-plane. */
export function requireSession(clients: EdgeClients): RequestHandler {
  return wrap(async (req) => {
    const token = readCookie(req, SESSION_COOKIE);
    if (!token) throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
    const session = await clients.controlPlane.getSession({ sessionToken: token });
    const { ip, userAgent } = clientInfo(req);
    req.actor = { ...(session.actor as common.Actor), ip, userAgent };
    req.sessionToken = token;
  });
}
