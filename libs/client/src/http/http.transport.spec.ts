import { AuthError, NetworkError, RateLimitError, ServerError } from '../errors';
import { buildUrl, HttpTransport, type FetchLike } from './http.transport';
import { backoffDelayMs, DEFAULT_RETRY, isRetryableStatus, normalizeRetry } from './retry.policy';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function transportWith(answers: Array<Response | Error>, retry = DEFAULT_RETRY) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const sleeps: number[] = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, init });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    if (next instanceof Error) throw next;
    return next;
  };
  const transport = new HttpTransport({
    baseUrl: 'http://gateway.test/',
    headers: () => ({ authorization: 'Bearer ak_1.secret', 'X-Gateway-SDK': 'gateway-client-ts/0.1.0' }),
    retry,
    timeoutMs: 1_000,
    fetch,
    sleep: async (ms) => void sleeps.push(ms),
  });
  return { transport, calls, sleeps };
}

describe('retry policy', () => {
  it('retries only HTTP 500, the one status the spec declares safe', () => {
    expect(isRetryableStatus(500)).toBe(true);
    for (const status of [400, 401, 402, 404, 422, 429, 501, 502, 503, 504]) expect(isRetryableStatus(status)).toBe(false);
  });

  it('backs off exponentially: 1 s, 2 s, 4 s, capped', () => {
    expect([0, 1, 2, 3, 4].map((retry) => backoffDelayMs(retry, DEFAULT_RETRY))).toEqual([1_000, 2_000, 4_000, 8_000, 8_000]);
  });

  it('rejects nonsense options', () => {
    expect(() => normalizeRetry({ retries: -1 })).toThrow(TypeError);
    expect(() => normalizeRetry({ retries: 1.5 })).toThrow(TypeError);
    expect(normalizeRetry({ retries: 0 })).toEqual({ ...DEFAULT_RETRY, retries: 0 });
  });
});

describe('HttpTransport', () => {
  it('sends the credential, the SDK-mode header and JSON to the base address', async () => {
    const { transport, calls } = transportWith([json(201, { id: 't1' })]);
    const response = await transport.json<{ id: string }>('POST', '/api/v1/traces', { body: { metadata: { a: 1 } } });
    expect(response).toEqual({ status: 201, body: { id: 't1' } });
    expect(calls[0].url).toBe('http://gateway.test/api/v1/traces');
    expect(calls[0].init.method).toBe('POST');
    expect(calls[0].init.body).toBe('{"metadata":{"a":1}}');
    expect(calls[0].init.headers).toMatchObject({ authorization: 'Bearer ak_1.secret', 'X-Gateway-SDK': 'gateway-client-ts/0.1.0', 'content-type': 'application/json' });
  });

  it('retries a 500 with back-off and returns the later success', async () => {
    const { transport, calls, sleeps } = transportWith([json(500, { error: 'Internal server error' }), json(500, { error: 'Internal server error' }), json(200, { ok: true })]);
    await expect(transport.json('POST', '/api/v1/executions', { body: {} })).resolves.toEqual({ status: 200, body: { ok: true } });
    expect(calls).toHaveLength(3);
    expect(sleeps).toEqual([1_000, 2_000]);
  });

  it('gives up after the configured retries with a ServerError', async () => {
    const { transport, calls, sleeps } = transportWith([json(500, { error: 'boom' }), json(500, { error: 'boom' }), json(500, { error: 'boom' }), json(500, { error: 'boom' })]);
    await expect(transport.json('GET', '/api/v1/traces')).rejects.toMatchObject({ constructor: ServerError, status: 500, message: 'boom' });
    expect(calls).toHaveLength(4);
    expect(sleeps).toEqual([1_000, 2_000, 4_000]);
  });

  it.each([502, 503])('does not retry %i', async (status) => {
    const { transport, calls } = transportWith([json(status, { error: 'unavailable' })]);
    await expect(transport.json('POST', '/api/v1/executions', { body: {} })).rejects.toBeInstanceOf(ServerError);
    expect(calls).toHaveLength(1);
  });

  it('does not retry 4xx answers, and maps them', async () => {
    const { transport, calls } = transportWith([json(429, { error: 'Recursive loop detected. Account throttled.', code: 'LOOP_DETECTED' })]);
    await expect(transport.json('POST', '/api/v1/executions', { body: {} })).rejects.toMatchObject({ constructor: RateLimitError, code: 'LOOP_DETECTED' });
    expect(calls).toHaveLength(1);
    const auth = transportWith([json(401, { error: 'Unauthorized' })]);
    await expect(auth.transport.json('GET', '/api/v1/traces')).rejects.toBeInstanceOf(AuthError);
  });

  it('turns a failed connection into a NetworkError without retrying', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    const { transport, calls } = transportWith([refused]);
    await expect(transport.json('POST', '/api/v1/executions', { body: {} })).rejects.toMatchObject({ constructor: NetworkError, message: expect.stringContaining('ECONNREFUSED') });
    expect(calls).toHaveLength(1);
  });

  it('keeps non-JSON error bodies readable', async () => {
    const { transport } = transportWith([new Response('<html>Bad Gateway</html>', { status: 502 })]);
    await expect(transport.json('GET', '/api/v1/traces')).rejects.toMatchObject({ status: 502, message: '<html>Bad Gateway</html>' });
  });

  it('builds URLs with encoded query values and no empty ones', () => {
    expect(buildUrl('http://agent.local:8085/', '/api/v1/executions/stream', { trace_id: 't 1', input: 'a&b=c', page: undefined })).toBe(
      'http://agent.local:8085/api/v1/executions/stream?trace_id=t+1&input=a%26b%3Dc',
    );
  });
});
