import { assertUnreachable, DomainError, ErrorCode, isDomainError } from './domain-error';

export interface HttpErrorResponse {
  status: number;
  body: { error?: string; errors?: string[]; code?: string };
  headers: Record<string, string>;
}

/** The one mapping from domain codes to HTTP statuses. Exhaustive by construction. */
export function httpStatusOf(code: ErrorCode): number {
  switch (code) {
    case 'BAD_REQUEST': return 400;
    case 'UNAUTHENTICATED':
    case 'TOKEN_EXPIRED':
    case 'TOKEN_INVALID': return 401;
    case 'BUDGET_EXCEEDED': return 402;
    case 'FORBIDDEN': return 403;
    case 'NOT_FOUND': return 404;
    // The spec's statuses have no 409: a request the current state refuses (completing a sealed
    // trace, enabling MFA twice) is well-formed but fails validation.
    case 'VALIDATION_FAILED':
    case 'CONFLICT': return 422;
    case 'PAYLOAD_TOO_LARGE': return 413;
    case 'RATE_LIMITED':
    case 'CIRCUIT_OPEN':
    case 'LOOP_DETECTED':
    case 'TOO_MANY_ATTEMPTS': return 429;
    case 'UPSTREAM_FAILED': return 502;
    case 'UNAVAILABLE': return 503;
    case 'INTERNAL': return 500;
    default: return assertUnreachable(code);
  }
}

/** Gateway protection errors carry a machine-readable `code` in the body (spec: Errors). */
const CODES_IN_BODY: ReadonlySet<ErrorCode> = new Set(['BUDGET_EXCEEDED', 'CIRCUIT_OPEN', 'LOOP_DETECTED', 'TOO_MANY_ATTEMPTS']);

/**
 * Renders any thrown value as the spec's error body. Unexpected errors become a generic 500:
 * their message never reaches the client (the caller logs them with the trace id).
 */
export function toHttpError(error: unknown): HttpErrorResponse {
  if (!isDomainError(error)) {
    return { status: 500, body: { error: 'Internal server error' }, headers: {} };
  }
  const domain = error as DomainError;
  const status = httpStatusOf(domain.code);
  const body: HttpErrorResponse['body'] = domain.errors ? { errors: domain.errors } : { error: domain.message };
  if (CODES_IN_BODY.has(domain.code)) body.code = domain.code;
  const headers: Record<string, string> = {};
  if (domain.retryAfterSeconds !== undefined) headers['Retry-After'] = String(Math.max(0, Math.ceil(domain.retryAfterSeconds)));
  if (domain.code === 'INTERNAL') return { status, body: { error: 'Internal server error' }, headers };
  return { status, body, headers };
}
