import { DomainError } from './domain-error';
import { httpStatusOf, toHttpError } from './http-mapping';

describe('toHttpError', () => {
  it('answers the spec statuses and bodies', () => {
    expect(toHttpError(new DomainError('VALIDATION_FAILED', 'x', { errors: ["Name can't be blank"] }))).toEqual({ status: 422, body: { errors: ["Name can't be blank"] }, headers: {} });
    expect(toHttpError(new DomainError('LOOP_DETECTED', 'Recursive loop detected. Account throttled.'))).toEqual({ status: 429, body: { error: 'Recursive loop detected. Account throttled.', code: 'LOOP_DETECTED' }, headers: {} });
    expect(toHttpError(new DomainError('RATE_LIMITED', 'Rate limit exceeded', { retryAfterSeconds: 2.2 }))).toEqual({ status: 429, body: { error: 'Rate limit exceeded' }, headers: { 'Retry-After': '3' } });
  });

  it('has no 409: a state conflict is a request that fails validation', () => {
    expect(httpStatusOf('CONFLICT')).toBe(422);
    expect(toHttpError(new DomainError('CONFLICT', 'Trace already completed')).body).toEqual({ error: 'Trace already completed' });
  });

  it('never echoes an unexpected error', () => {
    expect(toHttpError(new Error('secret detail'))).toEqual({ status: 500, body: { error: 'Internal server error' }, headers: {} });
    expect(toHttpError(new DomainError('INTERNAL', 'secret detail')).body).toEqual({ error: 'Internal server error' });
  });
});
