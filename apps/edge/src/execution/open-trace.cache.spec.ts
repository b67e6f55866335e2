import { OpenTraceCache } from './open-trace.cache';

describe('OpenTraceCache', () => {
  const trace = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

  it('knows a trace only for the project it was seen open in', () => {
    const cache = new OpenTraceCache();
    cache.markOpen(7, trace(1));
    expect(cache.isOpen(7, trace(1))).toBe(true);
    expect(cache.isOpen(8, trace(1))).toBe(false);
    expect(cache.isOpen(7, trace(2))).toBe(false);
  });

  it('forgets a trace on completion and after its time to live', () => {
    let now = 1_000;
    const spy = jest.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      const cache = new OpenTraceCache(100);
      cache.markOpen(7, trace(1));
      cache.markOpen(7, trace(2));
      cache.forget(trace(1));
      expect(cache.isOpen(7, trace(1))).toBe(false);
      now += 99;
      expect(cache.isOpen(7, trace(2))).toBe(true);
      now += 1;
      expect(cache.isOpen(7, trace(2))).toBe(false);
    } finally {
      spy.mockRestore();
    }
  });

  it('drops the oldest entry beyond its capacity', () => {
    const cache = new OpenTraceCache(60_000, 2);
    cache.markOpen(7, trace(1));
    cache.markOpen(7, trace(2));
    cache.markOpen(7, trace(1)); // seen again: now the newest
    cache.markOpen(7, trace(3));
    expect([1, 2, 3].map((n) => cache.isOpen(7, trace(n)))).toEqual([true, false, true]);
  });
});
