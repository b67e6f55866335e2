import { Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { assertUnreachable, DomainError, ERROR_CODES, ErrorCode, isDomainError } from './domain-error';

const CODE_KEY = 'x-domain-error-code';
const ERRORS_KEY = 'x-domain-errors';
const RETRY_KEY = 'x-retry-after';

/** The one mapping from domain codes to gRPC status codes. Exhaustive by construction. */
export function grpcStatusOf(code: ErrorCode): GrpcStatus {
  switch (code) {
    case 'BAD_REQUEST':
    case 'VALIDATION_FAILED': return GrpcStatus.INVALID_ARGUMENT;
    case 'UNAUTHENTICATED':
    case 'TOKEN_EXPIRED':
    case 'TOKEN_INVALID': return GrpcStatus.UNAUTHENTICATED;
    case 'FORBIDDEN': return GrpcStatus.PERMISSION_DENIED;
    case 'NOT_FOUND': return GrpcStatus.NOT_FOUND;
    case 'CONFLICT': return GrpcStatus.FAILED_PRECONDITION;
    case 'PAYLOAD_TOO_LARGE': return GrpcStatus.OUT_OF_RANGE;
    case 'BUDGET_EXCEEDED':
    case 'RATE_LIMITED':
    case 'CIRCUIT_OPEN':
    case 'LOOP_DETECTED':
    case 'TOO_MANY_ATTEMPTS': return GrpcStatus.RESOURCE_EXHAUSTED;
    case 'UPSTREAM_FAILED': return GrpcStatus.ABORTED;
    case 'UNAVAILABLE': return GrpcStatus.UNAVAILABLE;
    case 'INTERNAL': return GrpcStatus.INTERNAL;
    default: return assertUnreachable(code);
  }
}

export type GrpcErrorObject = Partial<ServiceError> & { code: GrpcStatus; details: string; metadata: Metadata };

/**
 * Server side: turns a thrown value into a gRPC status. The domain code travels in trailing
 * metadata so a gRPC caller (edge) can rebuild the same DomainError. Unexpected errors become
 * INTERNAL with a generic message.
 */
export function toGrpcError(error: unknown): GrpcErrorObject {
  const { code, message, errors, retryAfterSeconds } = toCallError(error);
  const metadata = new Metadata();
  metadata.set(CODE_KEY, code);
  if (errors.length > 0) metadata.set(ERRORS_KEY, JSON.stringify(errors));
  if (retryAfterSeconds !== undefined) metadata.set(RETRY_KEY, String(retryAfterSeconds));
  return { code: grpcStatusOf(code), details: message, metadata };
}

/** One of the gateway's error codes, or undefined for anything else. */
function knownCode(raw: string | undefined): ErrorCode | undefined {
  return raw !== undefined && (ERROR_CODES as readonly string[]).includes(raw) ? (raw as ErrorCode) : undefined;
}

function fallbackCodeFor(status: GrpcStatus | undefined): ErrorCode {
  switch (status) {
    case GrpcStatus.INVALID_ARGUMENT: return 'VALIDATION_FAILED';
    case GrpcStatus.UNAUTHENTICATED: return 'UNAUTHENTICATED';
    case GrpcStatus.PERMISSION_DENIED: return 'FORBIDDEN';
    case GrpcStatus.NOT_FOUND: return 'NOT_FOUND';
    case GrpcStatus.FAILED_PRECONDITION: return 'CONFLICT';
    case GrpcStatus.RESOURCE_EXHAUSTED: return 'RATE_LIMITED';
    case GrpcStatus.UNAVAILABLE:
    case GrpcStatus.DEADLINE_EXCEEDED: return 'UNAVAILABLE';
    default: return 'INTERNAL';
  }
}

/** Client side: rebuilds the DomainError a gRPC server raised (or a generic one). */
export function fromGrpcError(error: unknown): DomainError {
  const serviceError = error as Partial<ServiceError>;
  const metadata = serviceError.metadata;
  const rawCode = metadata?.get(CODE_KEY)[0]?.toString();
  const code: ErrorCode = knownCode(rawCode) ?? fallbackCodeFor(serviceError.code);
  const rawErrors = metadata?.get(ERRORS_KEY)[0]?.toString();
  const rawRetry = metadata?.get(RETRY_KEY)[0]?.toString();
  const message = code === 'INTERNAL' ? 'Internal server error' : (serviceError.details ?? 'Internal server error');
  return new DomainError(code, code === 'UNAVAILABLE' && !rawCode ? 'Service unavailable' : message, {
    errors: rawErrors ? (JSON.parse(rawErrors) as string[]) : undefined,
    retryAfterSeconds: rawRetry ? Number(rawRetry) : undefined,
    cause: error,
  });
}

/** One item's error in a batch call's answer (the shape of `gateway.common.v1.CallError`). */
export interface CallErrorShape<C extends string = string> {
  code: C;
  message: string;
  errors: string[];
  retryAfterSeconds?: number | undefined;
}

/**
 * Server side: what a thrown value answers a gRPC caller (code, message, details). A unary call
 * carries it in its status (`toGrpcError`), a batch in the failed item. Unexpected errors become
 * INTERNAL with the generic message.
 */
export function toCallError(error: unknown): CallErrorShape<ErrorCode> {
  if (!isDomainError(error) || (error as DomainError).code === 'INTERNAL') return { code: 'INTERNAL', message: 'Internal server error', errors: [] };
  const domain = error as DomainError;
  return { code: domain.code, message: domain.message, errors: domain.errors ?? [], retryAfterSeconds: domain.retryAfterSeconds };
}

/** Client side, one item of a batch: the DomainError its unary call would have raised (`fromGrpcError`). */
export function fromCallError(error: CallErrorShape): DomainError {
  const code = knownCode(error.code) ?? 'INTERNAL';
  return new DomainError(code, code === 'INTERNAL' ? 'Internal server error' : error.message, {
    errors: error.errors.length > 0 ? error.errors : undefined,
    retryAfterSeconds: error.retryAfterSeconds,
  });
}
