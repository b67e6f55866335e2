import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DomainError } from '@gateway/errors';
import type { common, controlplane } from '@gateway/proto';
import type { EdgeClients } from '../clients';

export const SESSION_COOKIE = 'gw_session';

export interface KeyPrincipal {
  keyId: string;
  projectId: number;
  organizationId: number;
  hourlyLimit: number | null;
  loopGuardExempt: boolean;
  projectStatus: string;
  monthlyBudgetUsd: number | null;
}

declare module 'express-serve-static-core' {
  interface Request {
    actor?: common.Actor;
    key?: KeyPrincipal;
    sessionToken?: string;
  }
}

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return decodeURIComponent(part.slice(index + 1).trim());
  }
  return undefined;
}

export function clientInfo(req: Request): { ip: string; userAgent: string } {
  return { ip: req.ip ?? req.socket.remoteAddress ?? '', userAgent: String(req.headers['user-agent'] ?? '') };
}

const wrap = (fn: (req: Request) => Promise<void>): RequestHandler => (req: Request, _res: Response, next: NextFunction) => {
  fn(req).then(() => next(), next);
};

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

/**
 * API keys are verified by control-plane and cached for the TTL it answers (bounded by
 * KEY_CACHE_MAX_MS). A key that is not active is refused with 401 like an unknown one.
 */
export class ApiKeyAuthenticator {
  private readonly cache = new Map<string, { principal: KeyPrincipal; until: number }>();

  constructor(private readonly clients: EdgeClients, private readonly maxCacheMs: number) {}

  /** Drop cached entries of a key (key.changed). */
  invalidate(keyId: string): void {
    for (const [raw, entry] of this.cache) if (entry.principal.keyId === keyId) this.cache.delete(raw);
  }

  middleware(): RequestHandler {
    return wrap(async (req) => {
      const header = req.headers.authorization ?? '';
      const raw = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      if (!raw.startsWith('ak_')) throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
      req.key = await this.verify(raw, req);
      req.actor = { userId: '', organizationId: req.key.organizationId, role: 'api_key', keyProjectId: req.key.projectId, keyId: req.key.keyId, ...clientInfo(req) };
    });
  }

  private async verify(raw: string, req: Request): Promise<KeyPrincipal> {
    const cached = this.cache.get(raw);
    if (cached && cached.until > Date.now()) return cached.principal;
    const { ip, userAgent } = clientInfo(req);
    let answer: controlplane.KeyPrincipal;
    try {
      answer = await this.clients.controlPlane.verifyApiKey({ rawKey: raw, ip, userAgent });
    } catch (error) {
      if (error instanceof DomainError && error.code === 'UNAUTHENTICATED') throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
      throw error;
    }
    if (answer.status !== 'active') throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
    const principal: KeyPrincipal = {
      keyId: answer.keyId,
      projectId: answer.projectId,
      organizationId: answer.organizationId,
      hourlyLimit: answer.hourlyLimit ?? null,
      loopGuardExempt: answer.loopGuardExempt,
      projectStatus: answer.projectStatus,
      monthlyBudgetUsd: answer.monthlyBudgetUsd ?? null,
    };
    if (this.cache.size > 50_000) this.cache.clear();
    this.cache.set(raw, { principal, until: Date.now() + Math.min(answer.cacheTtlMs, this.maxCacheMs) });
    return principal;
  }
}
