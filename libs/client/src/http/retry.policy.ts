/**
 * When a request is sent again. The spec names one case: HTTP 500, "unexpected server error;
 * safe to retry with exponential back-off (for example 1 s, 2 s, 4 s)". Nothing else is retried:
 * 4xx answers are decisions (fix the request, wait for the window, reset the key), other 5xx
 * answers and network failures are not declared safe, and a retried execution could be billed
 * twice. Those reach the fail-closed / fail-open decision at once.
 */
export interface RetryOptions {
  /** Retries after the first attempt (0 disables). */
  retries: number;
  /** Delay before the first retry (ms); doubles each time. */
  baseDelayMs: number;
  /** Upper bound of one delay (ms). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { retries: 3, baseDelayMs: 1_000, maxDelayMs: 8_000 };

export function isRetryableStatus(status: number): boolean {
  return status === 500;
}

/** Delay before retry number `retry` (0-based): base × 2^retry, capped. */
export function backoffDelayMs(retry: number, options: RetryOptions): number {
  return Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
}

export function normalizeRetry(options: Partial<RetryOptions> | undefined): RetryOptions {
  const merged = { ...DEFAULT_RETRY, ...(options ?? {}) };
  if (!Number.isInteger(merged.retries) || merged.retries < 0) throw new TypeError('retry.retries must be a non-negative integer');
  if (!(merged.baseDelayMs >= 0) || !(merged.maxDelayMs >= 0)) throw new TypeError('retry delays must be non-negative numbers');
  return merged;
}
