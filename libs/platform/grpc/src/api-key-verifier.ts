import type { EventBus } from '@gateway/bus';
import { controlplane } from '@gateway/proto';
import { createServiceClient } from './client';
import { VerifiedKeyCache } from './control-plane-caches';
import type { Principal } from './types';

/**
 * Lets any gRPC service accept an internal team's API key: control-plane verifies it, the
 * answer is cached briefly (its own `cache_ttl_ms`, at most 5 s here) so hot paths do not pay
 * a round trip per call; with a bus, key.changed drops a revoked or paused key at once.
 */
export function controlPlaneKeyVerifier(address: string, internalToken: string, bus?: EventBus): (rawKey: string) => Promise<Principal> {
  const client = createServiceClient(controlplane.ControlPlaneServiceService, { address, internalToken, deadlineMs: 3_000 });
  const cache = new VerifiedKeyCache(client, 5_000, 10_000);
  if (bus) void cache.listen(bus);
  return async (rawKey) => {
    const answer = await cache.verify(rawKey, { ip: '', userAgent: 'grpc' });
    return { kind: 'api_key', keyId: answer.keyId, projectId: answer.projectId, organizationId: answer.organizationId };
  };
}
