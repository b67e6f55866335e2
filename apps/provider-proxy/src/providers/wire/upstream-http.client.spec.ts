import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { SELF_SIGNED_TLS } from './self-signed-tls.fixture';
import { createUpstreamHttpClient, DEFAULT_UPSTREAM_HTTP, type UpstreamHttpClient } from './upstream-http.client';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

/** A real HTTP server counting the connections it accepted and the ones still open. */
async function startServer(handler: Handler) {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handler(req, body, res));
  });
  server.on('connection', (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = (path = '/v1/chat/completions') => new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
  return {
    url,
    get connections() {
      return connections;
    },
    get open() {
      return sockets.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const until = async (condition: () => boolean, timeoutMs = 2_000) => {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

/** Lets a drained response hand its connection back to the agent. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('createUpstreamHttpClient', () => {
  let client: UpstreamHttpClient;
  let server: Awaited<ReturnType<typeof startServer>>;
  let handler: Handler;

  beforeEach(async () => {
    handler = (_req, body, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echo: body }));
    server = await startServer((req, body, res) => handler(req, body, res));
    client = createUpstreamHttpClient();
  });
  afterEach(async () => {
    client.close();
    await server.close();
  });

  it('POSTs the body with its byte length and the given headers, and reads the answer', async () => {
    let seen: IncomingMessage | undefined;
    handler = (req, body, res) => {
      seen = req;
      res.writeHead(200, { 'x-answer': 'yes' }).end(`got ${body}`);
    };
    const body = JSON.stringify({ content: 'Grüße, 東京 👋' });
    const response = await client.post(server.url('/v1/chat/completions?api-version=1'), { 'content-type': 'application/json', authorization: 'Bearer sk-test' }, body).response;
    expect(response.status).toBe(200);
    expect(response.header('x-answer')).toBe('yes');
    expect(response.header('x-missing')).toBeUndefined();
    expect(await response.text()).toBe(`got ${body}`);
    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe('/v1/chat/completions?api-version=1');
    expect(seen?.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(seen?.headers.authorization).toBe('Bearer sk-test');
    // Neither compression nor chunked uploads: what the provider gets is plain and sized.
    expect(seen?.headers['accept-encoding']).toBeUndefined();
    expect(seen?.headers['transfer-encoding']).toBeUndefined();
  });

  it('reuses one keep-alive connection for sequential calls', async () => {
    for (let i = 0; i < 5; i++) {
      const response = await client.post(server.url(), {}, `{"n":${i}}`).response;
      expect(JSON.parse(await response.text())).toEqual({ echo: `{"n":${i}}` });
    }
    expect(server.connections).toBe(1);
  });

  it('bounds the connections per origin and queues the calls beyond', async () => {
    const bounded = createUpstreamHttpClient({ ...DEFAULT_UPSTREAM_HTTP, maxSocketsPerOrigin: 2 });
    let inFlight = 0;
    let most = 0;
    handler = (_req, body, res) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.end(body);
      }, 20);
    };
    try {
      const answers = await Promise.all(Array.from({ length: 6 }, async (_, i) => (await bounded.post(server.url(), {}, String(i)).response).text()));
      expect(answers).toEqual(['0', '1', '2', '3', '4', '5']);
      expect(most).toBe(2);
      expect(server.connections).toBe(2);
    } finally {
      bounded.close();
    }
  });

  it('abort() tears an unanswered request down', async () => {
    let closed = false;
    handler = (_req, _body, res) => {
      res.on('close', () => (closed = true)); // never answered
    };
    const call = client.post(server.url(), {}, '{}');
    await until(() => server.connections === 1);
    call.abort();
    await expect(call.response).rejects.toMatchObject({ name: 'AbortError' });
    await until(() => closed && server.open === 0);
  });

  it('abort() after a complete answer keeps the connection pooled (a stream past its end marker)', async () => {
    handler = (_req, _body, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: [DONE]\n\n');
    const call = client.post(server.url(), {}, '{}');
    const response = await call.response;
    for await (const chunk of response.chunks()) {
      expect(Buffer.from(chunk).toString()).toBe('data: [DONE]\n\n');
      call.abort();
      break;
    }
    await settle();
    await expect((await client.post(server.url(), {}, '{}').response).text()).resolves.toBe('data: [DONE]\n\n');
    expect(server.connections).toBe(1);
  });

  it('streams chunks as they arrive; breaking off closes the connection', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      setTimeout(() => res.write('data: two\n\n'), 10); // and never ends
    };
    const response = await client.post(server.url(), {}, '{}').response;
    const seen: string[] = [];
    for await (const chunk of response.chunks()) {
      seen.push(Buffer.from(chunk).toString());
      if (seen.length === 2) break;
    }
    expect(seen).toEqual(['data: one\n\n', 'data: two\n\n']);
    await until(() => server.open === 0);
  });

  it('discard() of a fully received error answer keeps its connection for the next call', async () => {
    let calls = 0;
    handler = (_req, _body, res) => {
      calls += 1;
      if (calls === 1) res.writeHead(503, { 'retry-after': '1' }).end('{"error":"overloaded, key sk-secret"}');
      else res.end('ok');
    };
    const failed = await client.post(server.url(), {}, '{}').response;
    expect(failed.status).toBe(503);
    expect(failed.header('retry-after')).toBe('1');
    failed.discard();
    await settle();
    expect(await (await client.post(server.url(), {}, '{}').response).text()).toBe('ok');
    expect(server.connections).toBe(1);
  });

  it('rejects with the connection error code when nothing listens', async () => {
    const url = server.url();
    await server.close();
    await expect(client.post(url, {}, '{}').response).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('rejects when the connection is reset before an answer', async () => {
    handler = (req) => req.socket.destroy();
    await expect(client.post(server.url(), {}, '{}').response).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('rejects text() when the connection dies mid-body', async () => {
    handler = (req, _body, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"partial":');
      setTimeout(() => req.socket.destroy(), 10);
    };
    const response = await client.post(server.url(), {}, '{}').response;
    await expect(response.text()).rejects.toBeDefined();
  });

  it('speaks TLS to https URLs and verifies the certificate: an untrusted one is refused before anything is sent', async () => {
    let requests = 0;
    const tls = createTlsServer(SELF_SIGNED_TLS, (_req, res) => {
      requests += 1;
      res.end('{}');
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    try {
      const url = new URL(`https://localhost:${(tls.address() as AddressInfo).port}/v1/chat/completions`);
      await expect(client.post(url, { authorization: 'Bearer sk-test' }, '{}').response).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
      expect(requests).toBe(0);
    } finally {
      tls.closeAllConnections();
      await new Promise((resolve) => tls.close(resolve));
    }
  });

  it('throws at once, sending nothing, for a header value that cannot go on the wire', () => {
    expect(() => client.post(server.url(), { authorization: 'Bearer sk-1\r\nx-injected: 1' }, '{}')).toThrow();
    expect(server.connections).toBe(0);
  });
});
