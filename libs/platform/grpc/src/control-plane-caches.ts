import type { EventBus, Subscription } from '@gateway/bus';
import { DomainError } from '@gateway/errors';
import { controlplane, events, Subjects } from '@gateway/proto';
import { createServiceClient } from './client';
import type { ServiceClient } from './types';

type ControlPlaneClient = ServiceClient<typeof controlplane.ControlPlaneServiceService>;

interface Entry<T> {
  value: T;
  until: number;
}

/**
 * API-key verification answers of control-plane, cached for the TTL control-plane grants
 * (bounded by `maxCacheMs`). A `key.changed` broadcast drops the key's entries at once, so a
 * revoked or paused key stops working on every replica well inside a second.
 */
export class VerifiedKeyCache {
  private readonly entries = new Map<string, Entry<controlplane.KeyPrincipal>>();
  /**
   * Bumped by every invalidation. A verify call started under an older generation may carry the
   * state from before the change (e.g. `tripped` after an admin reset it): its answer is returned
   * to that caller but never cached, so it cannot outlive the change for a whole TTL.
   */
  private generation = 0;

  constructor(
    private readonly client: Pick<ControlPlaneClient, 'verifyApiKey'>,
    private readonly maxCacheMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  /** The principal of an active key; UNAUTHENTICATED for unknown, expired, revoked or paused keys. */
  async verify(rawKey: string, caller: { ip: string; userAgent: string }): Promise<controlplane.KeyPrincipal> {
    const answer = await this.lookup(rawKey, caller);
    if (answer.status !== 'active') throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
    return answer;
  }

  /**
   * Control-plane's answer for a known key whatever its status (the caller tells a revoked key
   * from a paused one, e.g. for perimeter audit); unknown keys reject with UNAUTHENTICATED.
   */
  async lookup(rawKey: string, caller: { ip: string; userAgent: string }): Promise<controlplane.KeyPrincipal> {
    const cached = this.entries.get(rawKey);
    if (cached && cached.until > Date.now()) return cached.value;
    const startedAt = this.generation;
    const answer = await this.client.verifyApiKey({ rawKey, ip: caller.ip, userAgent: caller.userAgent });
    if (startedAt !== this.generation) return answer;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(rawKey, { value: answer, until: Date.now() + Math.min(answer.cacheTtlMs || 0, this.maxCacheMs) });
    return answer;
  }

  invalidateKey(keyId: string): void {
    this.generation += 1;
    for (const [raw, entry] of this.entries) if (entry.value.keyId === keyId) this.entries.delete(raw);
  }

  invalidateProject(projectId: number): void {
    this.generation += 1;
    for (const [raw, entry] of this.entries) if (entry.value.projectId === projectId) this.entries.delete(raw);
  }

  /** key.changed drops the key; project.changed drops the project's keys (status, budget). */
  async listen(bus: EventBus): Promise<Subscription[]> {
    const keys = await bus.broadcast(Subjects.keyChanged, async (message) => this.invalidateKey(events.KeyChanged.decode(message.data).keyId));
    const projects = await bus.broadcast(Subjects.projectChanged, async (message) => this.invalidateProject(events.ProjectChanged.decode(message.data).projectId));
    return [keys, projects];
  }
}

/**
 * A project's settings and model registry (no secrets) as control-plane answers them, cached
 * per project and dropped by `project.changed`. Concurrent misses share one call.
 */
export class ProjectPolicyCache {
  private readonly entries = new Map<number, Entry<controlplane.ProjectPolicy>>();
  private readonly pending = new Map<number, Promise<controlplane.ProjectPolicy>>();

  constructor(
    private readonly client: Pick<ControlPlaneClient, 'getProjectPolicy'>,
    private readonly ttlMs = 60_000,
  ) {}

  async get(projectId: number): Promise<controlplane.ProjectPolicy> {
    const cached = this.entries.get(projectId);
    if (cached && cached.until > Date.now()) return cached.value;
    const inFlight = this.pending.get(projectId);
    if (inFlight) return inFlight;
    const call = this.client
      .getProjectPolicy({ projectId, actor: undefined })
      .then((policy: controlplane.ProjectPolicy) => {
        if (this.pending.get(projectId) === call) this.entries.set(projectId, { value: policy, until: Date.now() + this.ttlMs });
        return policy;
      })
      .finally(() => {
        if (this.pending.get(projectId) === call) this.pending.delete(projectId);
      });
    this.pending.set(projectId, call);
    return call;
  }

  invalidate(projectId: number): void {
    this.entries.delete(projectId);
    // A call started before the change may answer stale data: do not let it fill the cache.
    this.pending.delete(projectId);
  }

  async listen(bus: EventBus): Promise<Subscription> {
    return bus.broadcast(Subjects.projectChanged, async (message) => this.invalidate(events.ProjectChanged.decode(message.data).projectId));
  }
}

/** Cached project policies for a service that talks to control-plane over gRPC. */
export function createProjectPolicyCache(address: string, internalToken: string, ttlMs?: number): { cache: ProjectPolicyCache; close(): void } {
  const client = createServiceClient(controlplane.ControlPlaneServiceService, { address, internalToken, deadlineMs: 3_000 });
  return { cache: new ProjectPolicyCache(client, ttlMs), close: () => client.close() };
}
