import type { Request, RequestHandler } from 'express';
import { DomainError } from '@gateway/errors';
import type { controlplane } from '@gateway/proto';
import type { EdgeClients } from '../clients';
import { clientInfo, wrap, type KeyPrincipal } from './authenticate';

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
