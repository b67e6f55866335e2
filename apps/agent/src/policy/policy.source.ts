import { createHash } from 'node:crypto';
import { isDomainError } from '@gateway/errors';
import { compilePolicy, type CompiledPolicy } from './local-policy.evaluator';
import { projectPolicySchema, toProjectPolicy } from './project-policy';

/** What the gateway answered to GET /api/v1/sdk/policy. */
export type PolicyFetch = { kind: 'answer'; status: number; body: unknown } | { kind: 'unreachable'; error: string };

export type PolicyLookup =
  | { kind: 'policy'; policy: CompiledPolicy; stale: boolean }
  /** The gateway's verdict on the caller's key (401, 402, 429): passed on as it is. */
  | { kind: 'refused'; status: number; body: unknown }
  /** No usable policy: the request must not leave the network. */
  | { kind: 'unavailable'; reason: string };

export interface PolicySourceOptions {
  /** A fetched policy is used this long without asking again (ms). */
  ttlMs: number;
  /** While the gateway cannot be asked, an older policy is still applied up to this age (ms). */
  maxStaleMs: number;
  maxEntries?: number;
  now?: () => number;
}

/** Statuses that are the gateway's decision about the key, not a failure to answer. */
const KEY_VERDICTS = new Set([401, 402, 403, 429]);

interface Entry {
  policy: CompiledPolicy;
  fetchedAt: number;
}

/**
 * Project policies by caller key. The agent holds no credential of its own: it asks with the
 * caller's key (so a key only ever sees its own project's policy) and caches per key digest.
 */
export class PolicySource {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<PolicyLookup>>();
  private readonly now: () => number;

  constructor(
    private readonly fetchPolicy: (authorization: string) => Promise<PolicyFetch>,
    private readonly options: PolicySourceOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async get(authorization: string): Promise<PolicyLookup> {
    const key = createHash('sha256').update(authorization).digest('hex');
    const cached = this.entries.get(key);
    if (cached && this.now() - cached.fetchedAt < this.options.ttlMs) return { kind: 'policy', policy: cached.policy, stale: false };
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.refresh(key, authorization).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private async refresh(key: string, authorization: string): Promise<PolicyLookup> {
    const fetched = await this.fetchPolicy(authorization);
    if (fetched.kind === 'answer' && fetched.status === 200) {
      const parsed = projectPolicySchema.safeParse(fetched.body);
      if (!parsed.success) return { kind: 'unavailable', reason: 'The gateway answered an invalid project policy' };
      let policy: CompiledPolicy;
      try {
        policy = compilePolicy(toProjectPolicy(parsed.data));
      } catch (error) {
        if (isDomainError(error)) return { kind: 'unavailable', reason: `Project policy cannot be enforced locally: ${error.message}` };
        throw error;
      }
      this.entries.delete(key);
      this.entries.set(key, { policy, fetchedAt: this.now() });
      if (this.entries.size > (this.options.maxEntries ?? 1_000)) this.entries.delete(this.entries.keys().next().value as string);
      return { kind: 'policy', policy, stale: false };
    }
    if (fetched.kind === 'answer' && KEY_VERDICTS.has(fetched.status)) {
      // A revoked or paused key loses its cached policy at once.
      this.entries.delete(key);
      return { kind: 'refused', status: fetched.status, body: fetched.body };
    }
    const stale = this.entries.get(key);
    if (stale && this.now() - stale.fetchedAt < this.options.maxStaleMs) return { kind: 'policy', policy: stale.policy, stale: true };
    const why = fetched.kind === 'unreachable' ? 'the gateway is unreachable' : `the gateway answered HTTP ${fetched.status}`;
    return { kind: 'unavailable', reason: `Project policy unavailable (${why}): request not forwarded` };
  }
}
