import type { ReplayJobRecord } from './replay-job.types';

/**
 * Job status records, the 1-hour result cache and the running job's lease. Two adapters:
 * Redis (production, shared by every worker and replica) and in-memory (the embedded default).
 * Every record expires `ttlMs` after it was written (spec: status and cache live 1 hour).
 */
export interface ReplayStore {
  saveJob(job: ReplayJobRecord, ttlMs: number): Promise<void>;
  getJob(jobId: string): Promise<ReplayJobRecord | undefined>;
  /** The completed result cached for (trace, overrides), with its job id. */
  getCached(cacheKey: string): Promise<{ jobId: string; result: Record<string, unknown> } | undefined>;
  setCached(cacheKey: string, value: { jobId: string; result: Record<string, unknown> }, ttlMs: number): Promise<void>;
  /** The queued or running job of (trace, overrides): set only when none is (atomic); answers the holder. */
  claimInflight(cacheKey: string, jobId: string, ttlMs: number): Promise<string>;
  clearInflight(cacheKey: string, jobId: string): Promise<void>;
  /** Takes the job's lease for `workerId` unless another worker holds it (atomic). */
  claimLease(jobId: string, workerId: string, leaseMs: number): Promise<boolean>;
  /** Extends a lease this worker still holds; false when it was lost. */
  renewLease(jobId: string, workerId: string, leaseMs: number): Promise<boolean>;
  releaseLease(jobId: string, workerId: string): Promise<void>;
  isHealthy(): boolean;
  close(): Promise<void>;
}
