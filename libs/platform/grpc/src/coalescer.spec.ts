import { Coalescer } from './coalescer';

/** A batch runner whose batches finish when the test says so. */
function gatedRunner() {
  const batches: number[][] = [];
  const gates: (() => void)[] = [];
  const run = async (items: number[]) => {
    batches.push(items);
    await new Promise<void>((resolve) => gates.push(resolve));
    return items.map((item) => item * 10);
  };
  const releaseNext = async () => {
    gates.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { run, batches, releaseNext };
}

describe('Coalescer (group commit)', () => {
  it('runs a lone call at once, as a batch of one', async () => {
    const runner = gatedRunner();
    const coalescer = new Coalescer(runner.run, { maxBatch: 8, maxInFlight: 1 });
    const result = coalescer.submit(1);
    expect(runner.batches).toEqual([[1]]);
    await runner.releaseNext();
    await expect(result).resolves.toBe(10);
  });

  it('sends the calls that arrived while every slot was busy together, in arrival order, each getting its own result', async () => {
    const runner = gatedRunner();
    const coalescer = new Coalescer(runner.run, { maxBatch: 8, maxInFlight: 1 });
    const results = [1, 2, 3, 4].map((item) => coalescer.submit(item));
    expect(runner.batches).toEqual([[1]]);
    await runner.releaseNext();
    expect(runner.batches).toEqual([[1], [2, 3, 4]]);
    await runner.releaseNext();
    await expect(Promise.all(results)).resolves.toEqual([10, 20, 30, 40]);
  });

  it('keeps up to maxInFlight batches running and no batch above maxBatch', async () => {
    const runner = gatedRunner();
    const coalescer = new Coalescer(runner.run, { maxBatch: 2, maxInFlight: 2 });
    const results = [1, 2, 3, 4, 5, 6].map((item) => coalescer.submit(item));
    expect(runner.batches).toEqual([[1], [2]]);
    await runner.releaseNext();
    expect(runner.batches).toEqual([[1], [2], [3, 4]]);
    await runner.releaseNext();
    expect(runner.batches).toEqual([[1], [2], [3, 4], [5, 6]]);
    await runner.releaseNext();
    await runner.releaseNext();
    await expect(Promise.all(results)).resolves.toEqual([10, 20, 30, 40, 50, 60]);
  });

  it('fails every call of a failed batch, and goes on with the next', async () => {
    let calls = 0;
    const coalescer = new Coalescer<number, number>(
      async (items) => {
        calls++;
        if (items.includes(2)) throw new Error('batch refused');
        return items;
      },
      { maxBatch: 8, maxInFlight: 1 },
    );
    const first = coalescer.submit(1);
    const second = [2, 3].map((item) => coalescer.submit(item));
    await expect(first).resolves.toBe(1);
    await expect(Promise.all(second.map((p) => p.catch((error: Error) => error.message)))).resolves.toEqual(['batch refused', 'batch refused']);
    await expect(coalescer.submit(4)).resolves.toBe(4);
    expect(calls).toBe(3);
  });

  it('refuses a runner that answers another number of results than items', async () => {
    const coalescer = new Coalescer<number, number>(async () => [1, 2], { maxBatch: 8, maxInFlight: 1 });
    await expect(coalescer.submit(1)).rejects.toThrow('batch of 1 answered 2 results');
  });
});
