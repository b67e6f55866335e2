import { createServer, request as httpRequest, Agent, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { trackHttpServer } from '../../src';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One request over a keep-alive agent: status, Connection header, body. */
function call(port: number, agent: Agent, path: string): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', agent }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
    });
    req.on('error', reject);
    req.end('{}');
  });
}

describe('trackHttpServer().drain', () => {
  let server: Server;
  let port: number;
  let agent: Agent;

  beforeEach(async () => {
    server = createServer((req, res) => {
      if (req.url === '/stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        let n = 0;
        const timer = setInterval(() => {
          res.write(`data: ${n}\n\n`);
          if (++n === 5) {
            clearInterval(timer);
            res.end();
          }
        }, 50);
        return;
      }
      if (req.url === '/forever') return; // never answers
      setTimeout(() => res.end('done'), 200);
    });
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    agent = new Agent({ keepAlive: true, maxSockets: 10 });
  });

  afterEach(() => {
    agent.destroy();
    server.closeAllConnections();
  });

  it('finishes in-flight requests and streams with Connection: close, refuses new connections, and closes once they are done', async () => {
    const drainer = trackHttpServer(server);
    // A warm keep-alive connection that will be idle when the drain starts.
    expect((await call(port, agent, '/warm')).connection).toBe('keep-alive');
    const slow = call(port, agent, '/slow');
    const stream = call(port, agent, '/stream');
    await sleep(50);
    expect(drainer.inFlight).toBe(2);
    const drained = drainer.drain(5_000);
    await expect(call(port, new Agent(), '/late')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(await slow).toEqual({ status: 200, connection: 'close', body: 'done' });
    expect((await stream).body).toBe('data: 0\n\ndata: 1\n\ndata: 2\n\ndata: 3\n\ndata: 4\n\n');
    const result = await drained;
    expect(result).toMatchObject({ forced: false, cancelled: 0 });
    expect(result.drainedMs).toBeLessThan(2_000);
    expect(drainer.inFlight).toBe(0);
  });

  it('without the tracker a finished keep-alive response keeps the server from closing (why it exists)', async () => {
    const slow = call(port, agent, '/slow');
    await sleep(50);
    let closed = false;
    server.close(() => (closed = true));
    server.closeIdleConnections();
    expect((await slow).connection).toBe('keep-alive');
    await sleep(300);
    expect(closed).toBe(false);
  });

  it('cuts what outlives the grace period', async () => {
    const drainer = trackHttpServer(server);
    const hanging = call(port, agent, '/forever').catch((error: NodeJS.ErrnoException) => error.code);
    await sleep(50);
    const result = await drainer.drain(200);
    expect(result).toMatchObject({ forced: true, cancelled: 1 });
    expect(await hanging).toBe('ECONNRESET');
  });
});
