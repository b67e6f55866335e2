interface Pending<I, O> {
  item: I;
  resolve(value: O): void;
  reject(error: unknown): void;
}

/**
 * Coalesces concurrent calls into batches (group commit). A call starts a batch at once while
 * fewer than `maxInFlight` batches run, so a lone call is never delayed (no timer); calls that
 * arrive while every slot is busy wait and leave together, up to `maxBatch` of them, as soon as a
 * slot frees. `run` answers one result per item, in order; when it throws, every call of that
 * batch gets the error.
 */
export class Coalescer<I, O> {
  private readonly queue: Pending<I, O>[] = [];
  private inFlight = 0;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly limits: { maxBatch: number; maxInFlight: number },
  ) {
    if (!(limits.maxBatch >= 1 && limits.maxInFlight >= 1)) throw new Error('a coalescer needs maxBatch and maxInFlight of at least 1');
  }

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.limits.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.limits.maxBatch);
      this.inFlight++;
      void this.settle(batch);
    }
  }

  private async settle(batch: Pending<I, O>[]): Promise<void> {
    try {
      const results = await this.run(batch.map((pending) => pending.item));
      if (results.length !== batch.length) throw new Error(`batch of ${batch.length} answered ${results.length} results`);
      batch.forEach((pending, index) => pending.resolve(results[index]));
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    } finally {
      this.inFlight--;
      this.pump();
    }
  }
}
