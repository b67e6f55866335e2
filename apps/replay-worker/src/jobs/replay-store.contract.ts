import type { ReplayJobRecord } from './replay-job.types';
import type { ReplayStore } from './replay.store';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The behaviour both adapters (Redis, memory) must show; run by each adapter's test. */
export function replayStoreContract(name: string, make: () => Promise<ReplayStore>): void {
  describe(`${name} replay store`, () => {
    let store: ReplayStore;
    beforeEach(async () => {
      store = await make();
    });
    afterEach(async () => {
      await store.close();
    });

    const job = (jobId: string): ReplayJobRecord => ({ jobId, projectId: 1, traceId: 't', overrides: { force_model: 'm' }, cacheKey: `k-${jobId}`, status: 'queued', createdAt: new Date().toISOString(), attempts: 0 });

    it('keeps a job record until it expires', async () => {
      const id = `job-${Math.random()}`;
      const record = job(id);
      await store.saveJob(record, 300);
      expect(await store.getJob(id)).toEqual(record);
      await sleep(400);
      expect(await store.getJob(id)).toBeUndefined();
    });

    it('caches a result until it expires', async () => {
      const key = `cache-${Math.random()}`;
      await store.setCached(key, { jobId: 'j', result: { status: 'completed' } }, 300);
      expect(await store.getCached(key)).toEqual({ jobId: 'j', result: { status: 'completed' } });
      await sleep(400);
      expect(await store.getCached(key)).toBeUndefined();
    });

    it('lets one job hold the in-flight marker of a key, and only it clear it', async () => {
      const key = `inflight-${Math.random()}`;
      expect(await store.claimInflight(key, 'a', 5_000)).toBe('a');
      expect(await store.claimInflight(key, 'b', 5_000)).toBe('a');
      await store.clearInflight(key, 'b');
      expect(await store.claimInflight(key, 'b', 5_000)).toBe('a');
      await store.clearInflight(key, 'a');
      expect(await store.claimInflight(key, 'b', 5_000)).toBe('b');
    });

    it('gives a lease to one worker until it is released or lapses', async () => {
      const id = `lease-${Math.random()}`;
      expect(await store.claimLease(id, 'w1', 300)).toBe(true);
      expect(await store.claimLease(id, 'w2', 300)).toBe(false);
      expect(await store.claimLease(id, 'w1', 300)).toBe(true);
      expect(await store.renewLease(id, 'w2', 300)).toBe(false);
      expect(await store.renewLease(id, 'w1', 300)).toBe(true);
      await store.releaseLease(id, 'w2');
      expect(await store.claimLease(id, 'w2', 300)).toBe(false);
      await sleep(400);
      expect(await store.renewLease(id, 'w1', 300)).toBe(false);
      expect(await store.claimLease(id, 'w2', 300)).toBe(true);
      await store.releaseLease(id, 'w2');
      expect(await store.claimLease(id, 'w3', 300)).toBe(true);
    });
  });
}
