import { median, sampleStats, timed } from './sample-stats';

describe('sampleStats', () => {
  it('takes nearest-rank percentiles and the maximum, whatever the order of the samples', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1
    expect(sampleStats(samples)).toEqual({ n: 100, p50: 51, p95: 96, p99: 100, max: 100 });
    expect(sampleStats([7])).toEqual({ n: 1, p50: 7, p95: 7, p99: 7, max: 7 });
  });
});

describe('median', () => {
  it('is the middle value of an odd count and the mean of the two middle ones of an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

describe('timed', () => {
  it('measures how long the function takes', async () => {
    const ms = await timed(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(ms).toBeGreaterThanOrEqual(15);
  });
});
