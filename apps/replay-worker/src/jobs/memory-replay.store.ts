import type { ReplayJobRecord } from './replay-job.types';
import type { ReplayStore } from './replay.store';

interface Entry {
  value: string;
  until: number;
}

/** The embedded default's store: one process, so a Map with expiry times is the whole story. */
export class MemoryReplayStore implements ReplayStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  private get(key: string): string | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  private set(key: string, value: string, ttlMs: number): void {
    if (this.entries.size > 50_000) for (const [k, e] of this.entries) if (e.until <= this.now()) this.entries.delete(k);
    this.entries.set(key, { value, until: this.now() + ttlMs });
  }

  async saveJob(job: ReplayJobRecord, ttlMs: number): Promise<void> {
    this.set(`job:${job.jobId}`, JSON.stringify(job), ttlMs);
  }

  async getJob(jobId: string): Promise<ReplayJobRecord | undefined> {
    const value = this.get(`job:${jobId}`);
    return value === undefined ? undefined : (JSON.parse(value) as ReplayJobRecord);
  }

  async getCached(cacheKey: string) {
    const value = this.get(`cache:${cacheKey}`);
    return value === undefined ? undefined : (JSON.parse(value) as { jobId: string; result: Record<string, unknown> });
  }

  async setCached(cacheKey: string, value: { jobId: string; result: Record<string, unknown> }, ttlMs: number): Promise<void> {
    this.set(`cache:${cacheKey}`, JSON.stringify(value), ttlMs);
  }

  async claimInflight(cacheKey: string, jobId: string, ttlMs: number): Promise<string> {
    const holder = this.get(`inflight:${cacheKey}`);
    if (holder !== undefined) return holder;
    this.set(`inflight:${cacheKey}`, jobId, ttlMs);
    return jobId;
  }

  async clearInflight(cacheKey: string, jobId: string): Promise<void> {
    if (this.get(`inflight:${cacheKey}`) === jobId) this.entries.delete(`inflight:${cacheKey}`);
  }

  async claimLease(jobId: string, workerId: string, leaseMs: number): Promise<boolean> {
    const holder = this.get(`lease:${jobId}`);
    if (holder !== undefined && holder !== workerId) return false;
    this.set(`lease:${jobId}`, workerId, leaseMs);
    return true;
  }

  async renewLease(jobId: string, workerId: string, leaseMs: number): Promise<boolean> {
    if (this.get(`lease:${jobId}`) !== workerId) return false;
    this.set(`lease:${jobId}`, workerId, leaseMs);
    return true;
  }

  async releaseLease(jobId: string, workerId: string): Promise<void> {
    if (this.get(`lease:${jobId}`) === workerId) this.entries.delete(`lease:${jobId}`);
  }

  isHealthy(): boolean {
    return true;
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}
