/**
 * Domain errors carry a code from this closed set, never a transport status.
 * Each transport maps codes exhaustively (see http-mapping.ts and grpc-mapping.ts).
 */
export const ERROR_CODES = [
  'BAD_REQUEST', // malformed body or missing required parameter (HTTP 400)
  'VALIDATION_FAILED', // well-formed but invalid (HTTP 422)
  'UNAUTHENTICATED', // missing/invalid/revoked/paused API key (401 "Unauthorized")
  'TOKEN_EXPIRED', // stale or invalidated session (401 "Token expired")
  'TOKEN_INVALID', // tampered session (401 "Invalid token")
  'FORBIDDEN', // authenticated but the role does not allow it (403)
  'NOT_FOUND', // missing or another organization's resource (404)
  'CONFLICT', // state does not allow the change (HTTP 422, gRPC FAILED_PRECONDITION)
  'PAYLOAD_TOO_LARGE', // input over a size cap (413)
  'BUDGET_EXCEEDED', // project monthly budget reached (402, code)
  'RATE_LIMITED', // rolling-hour request limit (429)
  'CIRCUIT_OPEN', // hourly spend cap tripped (429, code)
  'LOOP_DETECTED', // loop guard tripped (429, code)
  'TOO_MANY_ATTEMPTS', // login throttling (429)
  'UPSTREAM_FAILED', // a model provider failed after retries and fallbacks (502)
  'UNAVAILABLE', // a dependency (Redis, a service) is unreachable (503)
  'INTERNAL', // anything unexpected (500, no details leak)
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface DomainErrorOptions {
  /** Validation messages, rendered as `{errors: [...]}` by HTTP. */
  errors?: string[];
  /** Seconds after which a retry may succeed (429/503). */
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly errors?: string[];
  readonly retryAfterSeconds?: number;

  constructor(code: ErrorCode, message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.code = code;
    this.errors = options.errors;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export function isDomainError(value: unknown): value is DomainError {
  return value instanceof DomainError || (value instanceof Error && (value as DomainError).name === 'DomainError' && ERROR_CODES.includes((value as DomainError).code));
}

export function assertUnreachable(value: never): never {
  throw new Error(`Unhandled case: ${String(value)}`);
}
