import { DomainError } from '@gateway/errors';
import { controlplane } from '@gateway/proto';
import { createServiceClient } from './client';
import type { Principal } from './types';

/**
 * Lets any gRPC service accept an internal team's API key: control-plane verifies it, the
 * answer is cached briefly (its own `cache_ttl_ms`, at most 5 s here) so hot paths do not pay
 * a round trip per call. Paused keys are refused like revoked ones.
 */
export function controlPlaneKeyVerifier(address: string, internalToken: string): (rawKey: string) => Promise<Principal> {
  const client = createServiceClient(controlplane.ControlPlaneServiceService, { address, internalToken, deadlineMs: 3_000 });
  const cache = new Map<string, { principal: Principal; until: number }>();
  return async (rawKey) => {
    const cached = cache.get(rawKey);
    if (cached && cached.until > Date.now()) return cached.principal;
    const answer = await client.verifyApiKey({ rawKey, ip: '', userAgent: 'grpc' });
    if (answer.status !== 'active') throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
    const principal: Principal = { kind: 'api_key', keyId: answer.keyId, projectId: answer.projectId, organizationId: answer.organizationId };
    if (cache.size > 10_000) cache.clear();
    cache.set(rawKey, { principal, until: Date.now() + Math.min(answer.cacheTtlMs || 0, 5_000) });
    return principal;
  };
}
