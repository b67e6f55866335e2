import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { common } from '@gateway/proto';

export const SESSION_COOKIE = 'gw_session';

export interface KeyPrincipal {
  keyId: string;
  projectId: number;
  organizationId: number;
  hourlyLimit: number | null;
  loopGuardExempt: boolean;
  projectStatus: string;
  monthlyBudgetUsd: number | null;
  projectMonthlySpendUsd: number;
  /** ms epoch of the key's last admin reset to active (0 = never). */
  resetAtMs: number;
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

export const wrap = (fn: (req: Request) => Promise<void>): RequestHandler => (req: Request, _res: Response, next: NextFunction) => {
  fn(req).then(() => next(), next);
};
