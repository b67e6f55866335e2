import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DomainError } from '@gateway/errors';
import type { ApiKeyAuthenticator } from '../auth/api-key.middleware';
import type { EdgeClients } from '../clients';
import type { KeyCaller } from '../execution/execution.usecase';
import type { ProtectionGuard, RateLimitState } from '../protection';
import { handle } from './async-handler';

function setRateHeaders(res: Response, rate: RateLimitState): void {
  res.setHeader('X-RateLimit-Limit', String(rate.limit));
  res.setHeader('X-RateLimit-Remaining', String(rate.remaining));
  // Epoch seconds at which the next slot of the rolling window frees.
  res.setHeader('X-RateLimit-Reset', String(Math.ceil(rate.resetMs / 1000)));
}

/**
 * Every API-key endpoint: authenticate, then admit through the rate limit and loop guard. The
 * X-RateLimit-* headers go on every answer, refusals included.
 */
export function apiKeyAccess(keys: ApiKeyAuthenticator, guard: ProtectionGuard): RequestHandler[] {
  const admit = handle(async (req, res) => {
    try {
      setRateHeaders(res, await guard.admit(req.key!, { ip: req.actor!.ip, userAgent: req.actor!.userAgent }));
    } catch (error) {
      const rate = (error as { rate?: RateLimitState }).rate;
      if (error instanceof DomainError && rate) setRateHeaders(res, rate);
      throw error;
    }
  }, true);
  return [keys.middleware(), admit];
}

export function keyCaller(req: Request): KeyCaller {
  return { key: req.key!, projectId: req.key!.projectId, actor: req.actor! };
}

/**
 * Endpoints the dashboard reads with its session and servers with an API key: the key path when
 * an Authorization header is present (metered like every key request), else the session.
 */
export function keyOrSession(access: RequestHandler[], session: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const chain = req.headers.authorization ? access : [session];
    let index = 0;
    const step = (error?: unknown): void => {
      if (error) return next(error);
      const handler = chain[index++];
      if (!handler) return next();
      handler(req, res, step);
    };
    step();
  };
}

/**
 * The project a key-or-session request acts on: the key's own project (naming another one is
 * 404), or with a session the `project_id` (query or body) of a project the caller may see
 * (another organization's is 404, like a missing one).
 */
export async function requestProject(req: Request, clients: Pick<EdgeClients, 'controlPlane'>): Promise<number> {
  const raw = (req.query.project_id ?? (req.body as { project_id?: unknown } | undefined)?.project_id) as unknown;
  const named = raw === undefined ? undefined : Number(raw);
  if (named !== undefined && (!Number.isSafeInteger(named) || named <= 0)) throw new DomainError('BAD_REQUEST', 'project_id must be a positive integer');
  if (req.key) {
    if (named !== undefined && named !== req.key.projectId) throw new DomainError('NOT_FOUND', 'Not found');
    return req.key.projectId;
  }
  if (named === undefined) throw new DomainError('BAD_REQUEST', 'project_id is required with a session');
  return (await clients.controlPlane.getProject({ actor: req.actor, projectId: named })).id;
}
