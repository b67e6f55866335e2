/**
 * Why one upstream attempt failed. `detail` is safe to show to callers: it is built from
 * statuses and error codes only, never from upstream bodies, URLs or keys.
 */
export type AttemptFailureKind = 'http' | 'timeout' | 'network' | 'protocol' | 'config' | 'blocked';

export class UpstreamAttemptError extends Error {
  readonly kind: AttemptFailureKind;
  readonly retryable: boolean;
  readonly status?: number;
  readonly retryAfterMs?: number;

  constructor(kind: AttemptFailureKind, detail: string, options: { retryable: boolean; status?: number; retryAfterMs?: number }) {
    super(detail);
    this.name = 'UpstreamAttemptError';
    this.kind = kind;
    this.retryable = options.retryable;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }

  /** Availability failures open the breaker; a 400 or 401 proves the endpoint is up. */
  get countsAsOutage(): boolean {
    return this.retryable;
  }
}

/** 408/425/429 and every 5xx (Anthropic's 529 included) are transient. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || status >= 500;
}

export function httpFailure(status: number, retryAfterMs?: number): UpstreamAttemptError {
  return new UpstreamAttemptError('http', `HTTP ${status}`, { retryable: isRetryableStatus(status), status, retryAfterMs });
}

/** A model's registry entry cannot be called as configured; retrying cannot help. */
export function configFailure(detail: string): UpstreamAttemptError {
  return new UpstreamAttemptError('config', `misconfigured: ${detail}`, { retryable: false });
}

/** The upstream answered with something that is not the provider's wire format. */
export function protocolFailure(detail: string, retryable = true): UpstreamAttemptError {
  return new UpstreamAttemptError('protocol', detail, { retryable });
}
