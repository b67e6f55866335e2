import { AuthError, BudgetExceededError, errorFromResponse, GatewayError, isGatewayUnavailable, NetworkError, NotFoundError, RateLimitError, ServerError, ValidationError } from './errors';

const context = { method: 'POST', path: '/api/v1/executions' };

describe('errorFromResponse', () => {
  it.each([
    [401, { error: 'Unauthorized' }, AuthError],
    [404, { error: 'Not found' }, NotFoundError],
    [400, { error: 'trace_id is required' }, ValidationError],
    [422, { error: 'Trace not found or not owned by this customer' }, ValidationError],
    [402, { error: 'Monthly budget exceeded.', code: 'BUDGET_EXCEEDED' }, BudgetExceededError],
    [429, { error: 'Rate limit exceeded' }, RateLimitError],
    [500, { error: 'Internal server error' }, ServerError],
    [502, undefined, ServerError],
    [503, { error: 'Service unavailable' }, ServerError],
  ])('maps %i to its class', (status, body, type) => {
    const error = errorFromResponse(status, body, context);
    expect(error).toBeInstanceOf(type);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.status).toBe(status);
    expect(error.name).toBe(type.name);
    expect(error.method).toBe('POST');
    expect(error.path).toBe('/api/v1/executions');
    expect(error.message).toBe(body?.error ?? `HTTP ${status}`);
  });

  it('keeps the code of 429 protection errors', () => {
    const circuit = errorFromResponse(429, { error: 'Kill switch engaged: hourly limit of $1 exceeded.', code: 'CIRCUIT_OPEN' }, context);
    const loop = errorFromResponse(429, { error: 'Recursive loop detected. Account throttled.', code: 'LOOP_DETECTED' }, context);
    const rate = errorFromResponse(429, { error: 'Rate limit exceeded' }, context);
    expect([circuit, loop, rate].every((error) => error instanceof RateLimitError)).toBe(true);
    expect(circuit.code).toBe('CIRCUIT_OPEN');
    expect(loop.code).toBe('LOOP_DETECTED');
    expect(rate.code).toBeUndefined();
  });

  it('joins {errors: [...]} bodies into the message and keeps the list', () => {
    const error = errorFromResponse(422, { errors: ["Name can't be blank", 'Risk threshold must be a number between 0 and 1'] }, context);
    expect(error.message).toBe("Name can't be blank, Risk threshold must be a number between 0 and 1");
    expect(error.errors).toEqual(["Name can't be blank", 'Risk threshold must be a number between 0 and 1']);
  });

  it('leaves other statuses as plain GatewayError', () => {
    const error = errorFromResponse(403, { error: 'Forbidden' }, context);
    expect(error.constructor).toBe(GatewayError);
    expect(isGatewayUnavailable(error)).toBe(false);
  });

  it('counts only 5xx and network failures as the gateway being unavailable', () => {
    expect(isGatewayUnavailable(errorFromResponse(500, undefined, context))).toBe(true);
    expect(isGatewayUnavailable(new NetworkError('down'))).toBe(true);
    for (const status of [400, 401, 402, 404, 422, 429]) expect(isGatewayUnavailable(errorFromResponse(status, undefined, context))).toBe(false);
  });
});
