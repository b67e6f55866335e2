import { backoffDelayMs, MAX_BACKOFF_MS, parseRetryAfter, retryDelayMs, sleep } from './backoff.policy';

describe('backoffDelayMs', () => {
  it('doubles per retry, jittered between half and the full value', () => {
    expect(backoffDelayMs(1, 100, () => 0)).toBe(50);
    expect(backoffDelayMs(1, 100, () => 1)).toBe(100);
    expect(backoffDelayMs(3, 100, () => 0)).toBe(200);
    expect(backoffDelayMs(3, 100, () => 1)).toBe(400);
  });

  it('never exceeds the cap', () => {
    expect(backoffDelayMs(30, 1000, () => 1)).toBe(MAX_BACKOFF_MS);
  });
});

describe('retryDelayMs', () => {
  it('waits at least as long as the server asks', () => {
    expect(retryDelayMs(1, 10, 2000, () => 0)).toBe(2000);
    expect(retryDelayMs(1, 10, undefined, () => 0)).toBe(5);
  });

  it('gives up on this model when the server asks for longer than the cap', () => {
    expect(retryDelayMs(1, 10, MAX_BACKOFF_MS + 1)).toBeUndefined();
  });
});

describe('parseRetryAfter', () => {
  it('reads retry-after-ms, seconds and HTTP dates', () => {
    const headers = (values: Record<string, string>) => (name: string) => values[name];
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(parseRetryAfter(headers({ 'retry-after': '2' }))).toBe(2000);
    expect(parseRetryAfter(headers({ 'retry-after': new Date(10_000).toUTCString() }), 4000)).toBe(6000);
    expect(parseRetryAfter(headers({}))).toBeUndefined();
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }))).toBeUndefined();
  });
});

describe('sleep', () => {
  it('rejects as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const pending = sleep(10_000, controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(pending).rejects.toThrow('cancelled');
  });
});
