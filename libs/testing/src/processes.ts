import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port';

async function waitFor(probe: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!(await probe().catch(() => false))) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what} not ready after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function terminate(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/** A recorded upstream request of the mock provider (see apps/mock-provider/src/mock.types.ts). */
export interface MockRequest {
  id: number;
  receivedAt: number;
  path: string;
  format: string;
  model: string;
  stream: boolean;
  headers: Record<string, string>;
  body: any;
  status: number;
  usage?: { promptTokens: number; completionTokens: number; cachedTokens: number };
  abortedByClient?: boolean;
}

/** The mock-provider app as its own process (built bundle), driven through its admin API. */
export class MockProviderProcess {
  private child: ChildProcess | undefined;
  port = 0;

  constructor(private readonly root: string) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(extraEnv: Record<string, string> = {}): Promise<void> {
    const entry = join(this.root, 'dist/apps/mock-provider/main.js');
    if (!existsSync(entry)) throw new Error(`${entry} is missing: build first (npx nx run-many -t bundle)`);
    this.port = await freePort();
    this.child = spawn(process.execPath, [entry], { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', MOCK_PROVIDER_PORT: String(this.port), ...extraEnv }, stdio: ['ignore', 'inherit', 'inherit'] });
    await waitFor(async () => (await fetch(`${this.baseUrl}/health`)).ok, 'mock-provider');
  }

  async requests(): Promise<MockRequest[]> {
    const response = await fetch(`${this.baseUrl}/__mock/requests`);
    return ((await response.json()) as { requests: MockRequest[] }).requests;
  }

  async clearRequests(): Promise<void> {
    await fetch(`${this.baseUrl}/__mock/requests`, { method: 'DELETE' });
  }

  /** A failure or latency rule (apps/mock-provider MockBehavior). */
  async addBehavior(behavior: Record<string, unknown>): Promise<void> {
    const response = await fetch(`${this.baseUrl}/__mock/behaviors`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(behavior) });
    if (response.status !== 201) throw new Error(`mock behavior refused: ${response.status} ${await response.text()}`);
  }

  async clearBehaviors(): Promise<void> {
    await fetch(`${this.baseUrl}/__mock/behaviors`, { method: 'DELETE' });
  }

  stop(): Promise<void> {
    return terminate(this.child);
  }
}

/** A private redis-server on a free port, so a test can stop and restart it without touching others. */
export class RedisProcess {
  private child: ChildProcess | undefined;
  port = 0;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (!this.port) this.port = await freePort();
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const { createConnection } = await import('node:net');
    await waitFor(
      () =>
        new Promise<boolean>((resolve) => {
          const socket = createConnection(this.port, '127.0.0.1');
          socket.once('connect', () => {
            socket.write('PING\r\n');
            socket.once('data', (data) => {
              socket.destroy();
              resolve(data.toString().startsWith('+PONG'));
            });
          });
          socket.once('error', () => resolve(false));
        }),
      'redis-server',
    );
  }

  /** SIGKILL: Redis vanishes as in a crash or a network partition. */
  kill(): Promise<void> {
    return terminate(this.child, 'SIGKILL');
  }

  stop(): Promise<void> {
    return terminate(this.child);
  }
}
