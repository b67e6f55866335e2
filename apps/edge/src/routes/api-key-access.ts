import type { Request, RequestHandler, Response } from 'express';
import { DomainError } from '@gateway/errors';
import type { ApiKeyAuthenticator } from '../auth/api-key.middleware';
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
