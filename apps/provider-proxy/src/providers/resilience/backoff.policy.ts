// Upper bound for one wait, ms: past this a fallback model is a better use of the caller's time.
export const MAX_BACKOFF_MS = 10_000;

/**
 * Delay before retry number `retry` (1-based): exponential from `baseMs`, with "equal jitter"
 * (half fixed, half random) so synchronized clients spread out without ever retrying at once.
 */
export function backoffDelayMs(retry: number, baseMs: number, random: () => number = Math.random): number {
  const exponential = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, retry - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/**
 * A server-sent wait wins over our backoff when it is longer. Returns undefined when the server
 * asks for more than MAX_BACKOFF_MS: the caller should move on to the next model instead.
 */
export function retryDelayMs(retry: number, baseMs: number, retryAfterMs: number | undefined, random?: () => number): number | undefined {
  const backoff = backoffDelayMs(retry, baseMs, random);
  if (retryAfterMs === undefined) return backoff;
  if (retryAfterMs > MAX_BACKOFF_MS) return undefined;
  return Math.max(backoff, retryAfterMs);
}

/** Reads `retry-after-ms` (OpenAI, Azure) or `retry-after` (seconds or an HTTP date) through a header lookup. */
export function parseRetryAfter(header: (name: string) => string | undefined, now: number = Date.now()): number | undefined {
  const milliseconds = header('retry-after-ms');
  if (milliseconds !== undefined && milliseconds.trim() !== '' && Number.isFinite(Number(milliseconds))) return Math.max(0, Number(milliseconds));
  const value = header('retry-after');
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Resolves after `ms`, or rejects at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 && !signal?.aborted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
