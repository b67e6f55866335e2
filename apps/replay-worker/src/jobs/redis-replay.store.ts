import { Redis } from 'ioredis';
import type { ReplayJobRecord } from './replay-job.types';
import type { ReplayStore } from './replay.store';

// Compare-and-set scripts: only the holder may extend or drop a lease or an in-flight marker.
const RENEW_IF_HOLDER = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const DELETE_IF_HOLDER = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
const CLAIM_LEASE = `local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;

/** Production store: every worker and replica shares one Redis; keys expire on their own. */
export class RedisReplayStore implements ReplayStore {
  private constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  static async connect(url: string, prefix: string): Promise<RedisReplayStore> {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: false, connectTimeout: 3_000 });
    await redis.connect();
    return new RedisReplayStore(redis, prefix);
  }

  private key(kind: string, id: string): string {
    return `${this.prefix}:${kind}:${id}`;
  }

  async saveJob(job: ReplayJobRecord, ttlMs: number): Promise<void> {
    await this.redis.set(this.key('job', job.jobId), JSON.stringify(job), 'PX', ttlMs);
  }

  async getJob(jobId: string): Promise<ReplayJobRecord | undefined> {
    const value = await this.redis.get(this.key('job', jobId));
    return value === null ? undefined : (JSON.parse(value) as ReplayJobRecord);
  }

  async getCached(cacheKey: string) {
    const value = await this.redis.get(this.key('cache', cacheKey));
    return value === null ? undefined : (JSON.parse(value) as { jobId: string; result: Record<string, unknown> });
  }

  async setCached(cacheKey: string, value: { jobId: string; result: Record<string, unknown> }, ttlMs: number): Promise<void> {
    await this.redis.set(this.key('cache', cacheKey), JSON.stringify(value), 'PX', ttlMs);
  }

  async claimInflight(cacheKey: string, jobId: string, ttlMs: number): Promise<string> {
    const key = this.key('inflight', cacheKey);
    const set = await this.redis.set(key, jobId, 'PX', ttlMs, 'NX');
    if (set === 'OK') return jobId;
    return (await this.redis.get(key)) ?? jobId;
  }

  async clearInflight(cacheKey: string, jobId: string): Promise<void> {
    await this.redis.eval(DELETE_IF_HOLDER, 1, this.key('inflight', cacheKey), jobId);
  }

  async claimLease(jobId: string, workerId: string, leaseMs: number): Promise<boolean> {
    return Number(await this.redis.eval(CLAIM_LEASE, 1, this.key('lease', jobId), workerId, leaseMs)) === 1;
  }

  async renewLease(jobId: string, workerId: string, leaseMs: number): Promise<boolean> {
    return Number(await this.redis.eval(RENEW_IF_HOLDER, 1, this.key('lease', jobId), workerId, leaseMs)) === 1;
  }

  async releaseLease(jobId: string, workerId: string): Promise<void> {
    await this.redis.eval(DELETE_IF_HOLDER, 1, this.key('lease', jobId), workerId);
  }

  isHealthy(): boolean {
    return this.redis.status === 'ready';
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
