// `npm run bench`: the speed and memory figures, measured (never asserted in timed tests).
// Sections: guardrail detection in-process; the gateway's own overhead per model call in
// production mode (every service its own process, real PostgreSQL/Redis/NATS, the mock provider
// with zero latency), against calling the mock directly. Prints a table and one JSON line.
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { runGuardrailBench } from '../../apps/guardrail/scripts/bench-guardrail';
import { createServiceClient } from '@gateway/grpc';
import { guardrail, ledger, providerproxy, router } from '@gateway/proto';
import { metricSamples, metricSum } from '@gateway/telemetry';
import { GatewayFixture, median, MockProviderProcess, ProductionStack, sampleStats, scrapeMetrics, timed, type SampleStats } from '@gateway/testing';

const root = join(__dirname, '../..');
const OWNER = { email: 'owner@bench.test', password: 'bench-password-123' };

/** CPU time (user + system, ms) of a process so far, from /proc. */
function cpuMs(pid: number | undefined): number {
  if (!pid) return 0;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks at USER_HZ 100
}

/** CPU of every PostgreSQL process (the databases of all services), ms. */
function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim().startsWith('postgres')) total += cpuMs(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return total;
}

function rssMb(pid: number | undefined): number {
  if (!pid) return 0;
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return line ? Number(line.replace(/\D+/g, '')) / 1024 : 0;
}

/** Where a process's memory is, from its own /metrics (V8 heap used and total, off-heap buffers), MB. */
async function heapMb(opsPort: number): Promise<{ used: number; total: number; external: number }> {
  const text = await scrapeMetrics(opsPort);
  const value = (name: string) => Math.round(metricSum(text, name) / 1024 / 1024);
  return { used: value('nodejs_heap_size_used_bytes'), total: value('nodejs_heap_size_total_bytes'), external: value('nodejs_external_memory_bytes') };
}

/**
 * The load generator's client: node:http on keep-alive connections, one per worker. It shares the
 * machine's 2 cores with the gateway, so it is kept lean (global fetch costs about three times
 * the CPU per call); the direct baseline and the gateway calls go through the same client.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function postJson(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** gRPC calls a service has answered so far, from its own /metrics (every method and status). */
async function grpcCalls(opsPort: number): Promise<number> {
  const samples = metricSamples(await scrapeMetrics(opsPort), 'gateway_requests_total');
  return samples.filter((sample) => sample.labels.method?.startsWith('/')).reduce((sum, sample) => sum + sample.value, 0);
}

/** One concurrency level's figures (ms; the rate per second). */
interface LevelFigures {
  perSecond: number;
  p50: number;
  p99: number;
  overheadP50: number;
  overheadP99: number;
}

/** The median of each figure over the rounds, and the range of the rate (one round: no range). */
function medianLevel(rounds: LevelFigures[]): LevelFigures & { rounds: number; perSecondMin: number; perSecondMax: number } {
  const of = (key: keyof LevelFigures) => median(rounds.map((round) => round[key]));
  const rates = rounds.map((round) => round.perSecond);
  return { perSecond: of('perSecond'), p50: of('p50'), p99: of('p99'), overheadP50: of('overheadP50'), overheadP99: of('overheadP99'), rounds: rounds.length, perSecondMin: Math.min(...rates), perSecondMax: Math.max(...rates) };
}

/** BENCH_PROFILE=<dir>: CPU profiles of the main services, written when they stop (open in Chrome DevTools). */
function profile(app: string): string[] {
  const dir = process.env.BENCH_PROFILE;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${join(dir, app)}`] : [];
}

/** `calls` requests over `connections` concurrent workers: per-request latencies and the rate. */
async function load(connections: number, calls: number, call: () => Promise<unknown>): Promise<{ latencies: number[]; perSecond: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < calls) {
        next++;
        latencies.push(await timed(call));
      }
    }),
  );
  return { latencies, perSecond: (calls / (performance.now() - started)) * 1000 };
}

async function gatewaySection(calls: number, rounds: number) {
  const mock = new MockProviderProcess(root);
  await mock.start({ MOCK_REQUEST_LOG_LIMIT: '10' });
  const stack = new ProductionStack({
    root,
    apps: ['edge', 'control-plane', 'ledger', 'guardrail', 'router', 'provider-proxy'],
    databasePrefix: 'gw_bench',
    logLevel: 'error',
    // As the Helm chart and compose file run them: `node main.js`, no source-map support.
    sourceMaps: false,
    extraEnv: {
      // One key drives thousands of requests an hour: its hourly request limit is lifted here. The
      // loop guard is not: the key is created exempt from it (an explicit per-key setting).
      edge: { RATE_LIMIT_PER_HOUR: '10000000' },
      'control-plane': { GATEWAY_BOOTSTRAP_EMAIL: OWNER.email, GATEWAY_BOOTSTRAP_PASSWORD: OWNER.password },
    },
    nodeArgs: { edge: profile('edge'), ledger: profile('ledger'), guardrail: profile('guardrail'), 'provider-proxy': profile('provider-proxy') },
  });
  try {
    await stack.startAll();
    const fixture = new GatewayFixture(stack.edgeUrl, OWNER);
    await fixture.login();
    const project = await fixture.project({
      models: [{ identifier: 'bench', base_url: `${mock.baseUrl}/v1` }],
      settings: { routing_tiers: { simple: 'bench', complex: 'bench' } },
      key: { loop_guard_exempt: true },
    });
    const traceId = (await project.api.post('/api/v1/traces', {})).body.id as string;
    const input = 'Summarize the quarterly report in three bullet points for the sales team.';
    const directBody = JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: input }] });
    const direct = () => postJson(`${mock.baseUrl}/v1/chat/completions`, { authorization: 'Bearer sk-bench' }, directBody);
    const executionBody = JSON.stringify({ trace_id: traceId, input });
    const viaGateway = async () => {
      const response = await postJson(`${stack.edgeUrl}/api/v1/executions`, { authorization: `Bearer ${project.rawKey}` }, executionBody);
      if (response.status !== 200) throw new Error(`execution answered ${response.status}: ${response.text}`);
    };
    await load(4, 100, direct);
    await load(4, 100, viaGateway);

    const apps = [...stack.apps.values()];
    const ledgerOps = stack.apps.get('ledger')!.opsPort;
    // Each round runs every level once; the levels of one round are measured back to back, so the
    // rounds alternate over the machine's noise and the medians compare like with like.
    const perRound: Record<string, LevelFigures[]> = {};
    const cpuRounds: Record<string, number>[] = [];
    const ledgerCallRounds: number[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const connections of [1, 16, 64]) {
        const baseline = await load(connections, calls, direct);
        const cpuBefore = new Map(apps.map((app) => [app.name, cpuMs(app.process?.pid)]));
        const postgresBefore = postgresCpuMs();
        const ledgerCallsBefore = await grpcCalls(ledgerOps);
        const measured = await load(connections, calls, viaGateway);
        if (connections === 16) {
          // CPU per execution by process: where the 2 cores go under load.
          const cpu = Object.fromEntries(apps.map((app) => [app.name, (cpuMs(app.process?.pid) - cpuBefore.get(app.name)!) / calls]));
          cpu.postgres = (postgresCpuMs() - postgresBefore) / calls;
          cpuRounds.push(cpu);
          // Edge coalesces the trace checks and step writes of concurrent executions (batch methods).
          ledgerCallRounds.push(((await grpcCalls(ledgerOps)) - ledgerCallsBefore) / calls);
        }
        const gateway = sampleStats(measured.latencies);
        const mockOnly = sampleStats(baseline.latencies);
        (perRound[String(connections)] ??= []).push({ perSecond: measured.perSecond, p50: gateway.p50, p99: gateway.p99, overheadP50: gateway.p50 - mockOnly.p50, overheadP99: gateway.p99 - mockOnly.p99 });
      }
    }
    const levels = Object.fromEntries(Object.entries(perRound).map(([connections, figures]) => [connections, medianLevel(figures)]));
    const round2 = (n: number) => Math.round(n * 100) / 100;
    const cpuPerExecution = Object.fromEntries(Object.keys(cpuRounds[0]).map((name) => [name, round2(median(cpuRounds.map((cpu) => cpu[name])))]));
    const ledgerCallsPerExecution = round2(median(ledgerCallRounds));

    // Time to the first SSE chunk of GET /executions/stream.
    const firstChunk: number[] = [];
    for (let i = 0; i < Math.min(calls, 200); i++) {
      const started = performance.now();
      const response = await fetch(`${stack.edgeUrl}/api/v1/executions/stream?trace_id=${traceId}&input=${encodeURIComponent(input)}`, { headers: { authorization: `Bearer ${project.rawKey}` } });
      const reader = response.body!.getReader();
      await reader.read();
      firstChunk.push(performance.now() - started);
      while (!(await reader.read()).done) {
        // drain the rest of the stream
      }
    }
    const hops = await hopLatencies(stack, project.projectId, traceId, input, calls);
    const memory = Object.fromEntries(apps.map((app) => [app.name, Math.round(rssMb(app.process?.pid))]));
    const heap = Object.fromEntries(await Promise.all(apps.map(async (app) => [app.name, await heapMb(app.opsPort)] as const)));
    return { levels, firstChunk: sampleStats(firstChunk), memory, heap, hops, cpuPerExecution, ledgerCallsPerExecution };
  } finally {
    agent.destroy();
    await stack.stopAll();
    await mock.stop();
  }
}

/** Each hop of the execution path on its own, over gRPC with the service credential (where the time goes). */
async function hopLatencies(stack: ProductionStack, projectId: number, traceId: string, input: string, calls: number) {
  const options = { internalToken: stack.internalToken, deadlineMs: 10_000 };
  const ledgerClient = createServiceClient(ledger.LedgerServiceService, { address: stack.address('ledger'), ...options });
  const guardrailClient = createServiceClient(guardrail.GuardrailServiceService, { address: stack.address('guardrail'), ...options });
  const routerClient = createServiceClient(router.RouterServiceService, { address: stack.address('router'), ...options });
  const proxyClient = createServiceClient(providerproxy.ProviderProxyServiceService, { address: stack.address('provider-proxy'), ...options });
  const actor = { userId: '', organizationId: 0, role: 'service', keyId: '', ip: '', userAgent: 'bench', keyProjectId: projectId };
  const message = { role: 'user', content: input, toolCalls: [], toolCallId: '', name: '' };
  const hops: Record<string, () => Promise<unknown>> = {
    'ledger GetTraceHeader': () => ledgerClient.getTraceHeader({ actor, projectId, traceId }),
    'guardrail Check': () => guardrailClient.check({ text: input, policy: { blockedTerms: [], blockedPatterns: [], blockedTopics: [], riskThreshold: undefined }, direction: 'input', projectId: 0 }),
    'router Route': () => routerClient.route({ projectId, input, tools: [], sensitive: false, attachments: 0, forceModel: undefined }),
    'provider-proxy Complete': () => proxyClient.complete({ projectId, modelPath: ['bench'], messages: [message], tools: [], maxTokens: undefined, privateModelsOnly: false }),
    'ledger RecordStep': () =>
      ledgerClient.recordStep(
        ledger.RecordStepRequest.fromJSON({ actor, projectId, traceId, type: 'run', input, output: 'answer', model: 'bench', tier: 'simple', cost: 0.00001, latencyMs: 2, idempotencyKey: `bench-${Math.random()}` }),
      ),
  };
  const result: Record<string, SampleStats> = {};
  for (const [name, call] of Object.entries(hops)) {
    for (let i = 0; i < 20; i++) await call();
    const samples: number[] = [];
    for (let i = 0; i < calls; i++) samples.push(await timed(call));
    result[name] = sampleStats(samples);
  }
  for (const client of [ledgerClient, guardrailClient, routerClient, proxyClient]) client.close();
  return result;
}

async function main(): Promise<void> {
  const fmt = (n: number) => n.toFixed(2).padStart(8);
  const guardrail = await runGuardrailBench();
  const out: string[] = ['', '== guardrail (in-process, ms) =='];
  for (const row of guardrail.slice(0, 2)) out.push(`${row.name.padEnd(60)} p50 ${fmt(row.p50)}  p95 ${fmt(row.p95)}  max ${fmt(row.max)}  target ${row.targetOf} < ${row.targetMs}: ${row.pass ? 'PASS' : 'FAIL'}`);
  process.stdout.write(out.join('\n') + '\n');

  const calls = positiveInteger('BENCH_CALLS', 500);
  const rounds = positiveInteger('BENCH_ROUNDS', 1);
  const gateway = await gatewaySection(calls, rounds);
  const lines = [
    '',
    `== POST /api/v1/executions in production mode (${calls} calls per level${rounds > 1 ? `, median of ${rounds} alternating rounds` : ''}; mock provider at 0 ms; ms) ==`,
    `connections   executions/s      p50      p99   overhead p50   overhead p99${rounds > 1 ? '   executions/s range' : ''}`,
    ...Object.entries(gateway.levels).map(
      ([connections, l]) =>
        `${connections.padStart(11)} ${l.perSecond.toFixed(0).padStart(14)} ${fmt(l.p50)} ${fmt(l.p99)} ${fmt(l.overheadP50).padStart(14)} ${fmt(l.overheadP99).padStart(14)}${rounds > 1 ? `   ${l.perSecondMin.toFixed(0)}–${l.perSecondMax.toFixed(0)}`.padStart(22) : ''}`,
    ),
    `time to first SSE chunk   p50 ${fmt(gateway.firstChunk.p50)}  p95 ${fmt(gateway.firstChunk.p95)}  p99 ${fmt(gateway.firstChunk.p99)}`,
    `resident memory after the run (MB): ${Object.entries(gateway.memory).map(([app, mb]) => `${app} ${mb}`).join(', ')}`,
    `V8 heap used/total and external (MB): ${Object.entries(gateway.heap).map(([app, h]) => `${app} ${h.used}/${h.total} +${h.external}`).join(', ')}`,
    `CPU per execution at 16 connections (ms): ${Object.entries(gateway.cpuPerExecution).map(([app, ms]) => `${app} ${ms}`).join(', ')}`,
    `ledger gRPC calls per execution at 16 connections: ${gateway.ledgerCallsPerExecution} (2 without batching: trace check and step write)`,
    '',
    'hops on their own (gRPC, service credential, ms):',
    ...Object.entries(gateway.hops).map(([name, s]) => `  ${name.padEnd(26)} p50 ${fmt(s.p50)}  p95 ${fmt(s.p95)}`),
    '',
  ];
  process.stdout.write(lines.join('\n'));
  process.stdout.write(`${JSON.stringify({ metric: 'bench', guardrail: guardrail.slice(0, 2), gateway })}\n`);
}

/** A positive integer setting of the bench, or its default; anything else stops the run with a clear message. */
function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
