import { status as GrpcStatus } from '@grpc/grpc-js';
import { DomainError } from './domain-error';
import { fromCallError, fromGrpcError, toCallError, toGrpcError } from './grpc-mapping';

const view = (error: DomainError) => ({ code: error.code, message: error.message, errors: error.errors, retryAfterSeconds: error.retryAfterSeconds });

describe('gRPC error mapping', () => {
  const thrown = [
    new DomainError('VALIDATION_FAILED', 'Trace is completed', { errors: ['trace_id'] }),
    new DomainError('RATE_LIMITED', 'Rate limit exceeded', { retryAfterSeconds: 12 }),
    new DomainError('NOT_FOUND', 'Not found'),
    new DomainError('INTERNAL', 'pool exhausted at 10.0.0.3'),
    new Error('connection reset: secret detail'),
  ];

  it('rebuilds on the caller the DomainError the server raised, the same through a status or a batch item', () => {
    for (const error of thrown) {
      const status = toGrpcError(error);
      const viaStatus = fromGrpcError({ ...status, message: status.details });
      const viaItem = fromCallError(toCallError(error));
      expect(view(viaItem)).toEqual(view(viaStatus));
    }
    expect(view(fromCallError(toCallError(thrown[0])))).toEqual({ code: 'VALIDATION_FAILED', message: 'Trace is completed', errors: ['trace_id'], retryAfterSeconds: undefined });
    expect(toGrpcError(thrown[1]).code).toBe(GrpcStatus.RESOURCE_EXHAUSTED);
    expect(fromCallError(toCallError(thrown[1])).retryAfterSeconds).toBe(12);
  });

  it('never passes on what an unexpected or internal error says', () => {
    for (const error of thrown.slice(3)) {
      expect(toCallError(error)).toEqual({ code: 'INTERNAL', message: 'Internal server error', errors: [] });
      expect(toGrpcError(error)).toMatchObject({ code: GrpcStatus.INTERNAL, details: 'Internal server error' });
    }
  });

  it('reads an unknown code in a batch item as INTERNAL', () => {
    expect(view(fromCallError({ code: 'TEAPOT', message: 'short and stout', errors: [] }))).toEqual({ code: 'INTERNAL', message: 'Internal server error', errors: undefined, retryAfterSeconds: undefined });
  });
});
