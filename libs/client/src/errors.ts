/**
 * Errors of the client. HTTP answers map per the spec: 401 AuthError, 404 NotFoundError,
 * 400/422 ValidationError, 429 RateLimitError (with `code`), 5xx ServerError; 402 is a
 * BudgetExceededError (code BUDGET_EXCEEDED). A request that got no HTTP answer is a NetworkError.
 */

/** Error bodies of the gateway: `{error}`, `{errors: [...]}`, plus `code` on protection errors. */
export interface ErrorBody {
  error?: string;
  errors?: string[];
  code?: string;
  [field: string]: unknown;
}

export interface RequestContext {
  method: string;
  path: string;
}

export class GatewayError extends Error {
  /** HTTP status, or undefined when no HTTP answer was received (network, local checks). */
  readonly status: number | undefined;
  /** Machine-readable code of gateway protection errors (CIRCUIT_OPEN, LOOP_DETECTED, BUDGET_EXCEEDED). */
  readonly code: string | undefined;
  /** Validation messages of `{errors: [...]}` bodies (empty otherwise). */
  readonly errors: string[];
  readonly body: ErrorBody | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;

  constructor(message: string, options: { status?: number; body?: ErrorBody; context?: RequestContext; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = options.status;
    this.body = options.body;
    this.code = typeof options.body?.code === 'string' ? options.body.code : undefined;
    this.errors = Array.isArray(options.body?.errors) ? options.body.errors.filter((item): item is string => typeof item === 'string') : [];
    this.method = options.context?.method;
    this.path = options.context?.path;
  }
}

/** 401: key missing, invalid, expired, revoked or paused (or a stale session). Check or rotate the key. */
export class AuthError extends GatewayError {}
/** 404: the resource does not exist or belongs to another account. */
export class NotFoundError extends GatewayError {}
/** 400 (missing or malformed parameter) and 422 (failed validation): fix the request, do not resend it unchanged. */
export class ValidationError extends GatewayError {}
/** 402: the project's monthly budget cap is reached (code BUDGET_EXCEEDED). */
export class BudgetExceededError extends GatewayError {}
/**
 * 429: `code` undefined for the hourly request rate (retry after the window resets);
 * CIRCUIT_OPEN (hourly spend cap) or LOOP_DETECTED (loop guard): the key is paused until reset.
 */
export class RateLimitError extends GatewayError {}
/** 5xx: the gateway failed. 500 was retried with exponential back-off before this is thrown. */
export class ServerError extends GatewayError {}
/** No HTTP answer: connection refused or reset, DNS failure, timeout. */
export class NetworkError extends GatewayError {}
/** The plan (GET /api/v1/sdk/config) does not include the capability a call needs. Raised locally. */
export class CapabilityError extends GatewayError {}
/** A stream that started failed midway (the gateway sent an error event). */
export class StreamError extends GatewayError {}
/** A replay job ended with status `failed`. */
export class ReplayFailedError extends GatewayError {
  constructor(
    readonly jobId: string,
    message: string,
  ) {
    super(`Replay ${jobId} failed: ${message}`);
  }
}
/** A replay job was still not finished when the caller's wait ran out. */
export class ReplayTimeoutError extends GatewayError {
  constructor(
    readonly jobId: string,
    readonly lastStatus: string,
    waitedMs: number,
  ) {
    super(`Replay ${jobId} still ${lastStatus} after ${waitedMs} ms`);
  }
}
/** Fail-open was attempted (gateway unavailable) and the fallback provider failed too. */
export class FallbackProviderError extends GatewayError {
  constructor(
    message: string,
    readonly gatewayError: GatewayError,
    options: { status?: number; cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

function messageOf(status: number, body: ErrorBody | undefined): string {
  if (typeof body?.error === 'string' && body.error) return body.error;
  if (Array.isArray(body?.errors) && body.errors.length > 0) return body.errors.join(', ');
  return `HTTP ${status}`;
}

/** The one mapping from an HTTP error answer to an error class. */
export function errorFromResponse(status: number, body: ErrorBody | undefined, context: RequestContext): GatewayError {
  const options = { status, body, context };
  const message = messageOf(status, body);
  if (status === 401) return new AuthError(message, options);
  if (status === 404) return new NotFoundError(message, options);
  if (status === 400 || status === 422) return new ValidationError(message, options);
  if (status === 402) return new BudgetExceededError(message, options);
  if (status === 429) return new RateLimitError(message, options);
  if (status >= 500) return new ServerError(message, options);
  return new GatewayError(message, options);
}

/** Whether an error means the gateway could not govern the call (the fail-closed / fail-open decision point). */
export function isGatewayUnavailable(error: unknown): error is ServerError | NetworkError {
  return error instanceof ServerError || error instanceof NetworkError;
}
