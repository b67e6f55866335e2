import { createHash } from 'node:crypto';
import { createMockProvider, type MockProvider } from '../src/app';
import { DEFAULT_BEDROCK_CREDENTIALS } from '../src/provider.routes';
import { computeSignature } from '../src/wire/sigv4.verifier';

/** The mock over real HTTP: routes, auth, failure injection, latency, request log and admin API. */
describe('mock-provider over HTTP', () => {
  let mock: MockProvider;
  let base: string;
  const chat = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello mock' }] };
  const post = (path: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
    fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal });
  const openai = (headers: Record<string, string> = {}, body: unknown = chat) => post('/v1/chat/completions', body, { authorization: 'Bearer sk-any', ...headers });

  beforeAll(async () => {
    mock = createMockProvider({ latencyMs: 0 });
    base = `http://127.0.0.1:${(await mock.listen(0)).port}`;
  });
  afterAll(() => mock.close());
  beforeEach(() => mock.reset());

  describe('auth like the real providers', () => {
    it.each([
      ['openai without a key', 401, '/v1/chat/completions', chat, {}],
      ['openai with a rejected key', 401, '/v1/chat/completions', chat, { authorization: 'Bearer invalid-key' }],
      ['azure without api-version', 404, '/openai/deployments/d/chat/completions', chat, { 'api-key': 'k' }],
      ['azure without api-key', 401, '/openai/deployments/d/chat/completions?api-version=2024-10-21', chat, {}],
      ['anthropic without x-api-key', 401, '/v1/messages', { model: 'c', max_tokens: 5, messages: [] }, { 'anthropic-version': '2023-06-01' }],
      ['anthropic without anthropic-version', 400, '/v1/messages', { model: 'c', max_tokens: 5, messages: [] }, { 'x-api-key': 'k' }],
      ['gemini without a key', 403, '/v1beta/models/gemini-2.0-flash:generateContent', { contents: [] }, {}],
      ['gemini with a rejected key', 400, '/v1beta/models/gemini-2.0-flash:generateContent', { contents: [] }, { 'x-goog-api-key': 'invalid' }],
      ['bedrock unsigned', 403, '/model/m/converse', { messages: [] }, {}],
    ])('%s → %i', async (_name, status, path, body, headers) => {
      expect((await post(path, body, headers)).status).toBe(status);
    });

    it('lets internal (self-hosted) requests through without a key', async () => {
      const response = await post('/internal/v1/chat/completions', chat);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { choices: Array<{ message: { content: string } }> }).choices[0].message.content).toBe('Mock answer to: Hello mock');
    });

    it('accepts a correctly SigV4-signed Bedrock ConverseStream call and answers in event-stream framing', async () => {
      const body = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'Hi' }] }] });
      const rawPath = '/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse-stream';
      const amzDate = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
      const headers: Record<string, string> = { 'content-type': 'application/json', host: new URL(base).host, 'x-amz-date': amzDate };
      const { signature } = computeSignature({
        method: 'POST', rawPath, rawQuery: '', headers, signedHeaders: ['content-type', 'host', 'x-amz-date'],
        payloadSha256: createHash('sha256').update(body).digest('hex'), secretAccessKey: DEFAULT_BEDROCK_CREDENTIALS.secretAccessKey, amzDate, region: 'us-east-1', service: 'bedrock',
      });
      const response = await fetch(base + rawPath, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'x-amz-date': amzDate,
          authorization: `AWS4-HMAC-SHA256 Credential=${DEFAULT_BEDROCK_CREDENTIALS.accessKeyId}/${amzDate.slice(0, 8)}/us-east-1/bedrock/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=${signature}`,
        },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
      const frames = Buffer.from(await response.arrayBuffer());
      expect(frames.readUInt32BE(0)).toBeGreaterThan(16);
      expect(mock.requestLog[0]).toMatchObject({ format: 'bedrock', model: 'anthropic.claude-3-haiku-20240307-v1:0', stream: true, status: 200 });
    });
  });

  describe('failure injection', () => {
    it('answers an injected status with the provider error body', async () => {
      const response = await openai({ 'x-mock-fail': '503' });
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ error: expect.objectContaining({ type: 'server_error' }) });
    });

    it('resets the connection', async () => {
      await expect(openai({ 'x-mock-fail': 'reset' })).rejects.toThrow('fetch failed');
    });

    it('holds the request unanswered for a timeout', async () => {
      const started = Date.now();
      const pending = fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer sk-any', 'x-mock-fail': 'timeout' },
        body: JSON.stringify(chat),
        signal: AbortSignal.timeout(200),
      });
      await expect(pending).rejects.toThrow();
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
      expect(mock.requestLog[0].status).toBe(-1);
    });

    it('records a client that hangs up early as abortedByClient, but not the failures it injects itself', async () => {
      await expect(post('/v1/chat/completions', chat, { authorization: 'Bearer sk-any', 'x-mock-fail': 'timeout' }, AbortSignal.timeout(100))).rejects.toThrow();
      await expect(openai({ 'x-mock-fail': 'reset' })).rejects.toThrow('fetch failed');
      const broken = await openai({ 'x-mock-fail': 'broken-stream' }, { ...chat, stream: true });
      await expect(broken.text()).rejects.toThrow();
      await openai();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(mock.requestLog.map((entry) => entry.abortedByClient === true)).toEqual([true, false, false, false]);
    });

    it('breaks a stream after its first content', async () => {
      const response = await openai({ 'x-mock-fail': 'broken-stream' }, { ...chat, stream: true });
      expect(response.status).toBe(200);
      await expect(response.text()).rejects.toThrow();
    });

    it('fails the next N requests of one model through setBehavior', async () => {
      mock.setBehavior({ model: 'gpt-4o', fail: 429, times: 2, retryAfterSeconds: 1 });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await openai()).status);
      expect(statuses).toEqual([429, 429, 200]);
      expect((await openai({}, { ...chat, model: 'other' })).status).toBe(200);
    });

    it('delays by x-mock-latency-ms', async () => {
      const started = Date.now();
      expect((await openai({ 'x-mock-latency-ms': '150' })).status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    });
  });

  describe('request log and admin API', () => {
    it('records provider calls in-process and over HTTP, and clears them', async () => {
      await openai();
      expect(mock.requestLog).toHaveLength(1);
      expect(mock.requestLog[0]).toMatchObject({ format: 'openai', model: 'gpt-4o', path: '/v1/chat/completions', status: 200, usage: { promptTokens: 3 } });
      const listed = (await (await fetch(`${base}/__mock/requests`)).json()) as { requests: unknown[] };
      expect(listed.requests).toHaveLength(1);
      expect((await fetch(`${base}/__mock/requests`, { method: 'DELETE' })).status).toBe(204);
      expect(mock.requestLog).toHaveLength(0);
    });

    it('takes behaviours over HTTP, validating them', async () => {
      expect((await post('/__mock/behaviors', { format: 'openai', fail: 'nonsense' })).status).toBe(422);
      expect((await post('/__mock/behaviors', { format: 'openai', fail: 500, times: 1 })).status).toBe(201);
      expect((await openai()).status).toBe(500);
      expect((await openai()).status).toBe(200);
      await post('/__mock/behaviors', { fail: 502 });
      expect((await fetch(`${base}/__mock/behaviors`, { method: 'DELETE' })).status).toBe(204);
      expect((await openai()).status).toBe(200);
    });

    it('answers 404 for unknown routes and reports health', async () => {
      expect((await post('/v2/unknown', {})).status).toBe(404);
      expect(await (await fetch(`${base}/health`)).json()).toEqual({ status: 'ok' });
    });
  });
});
