// `npm run bench`: the speed and memory figures, measured (never asserted in timed tests).
// Sections: guardrail detection in-process; the gateway's own overhead per model call in
// production mode (every service its own process, real PostgreSQL/Redis/NATS, the mock provider
// with zero latency), against calling the mock directly. Prints a table and one JSON line.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGuardrailBench } from '../../apps/guardrail/scripts/bench-guardrail';
import { GatewayFixture, MockProviderProcess, ProductionStack } from '@gateway/testing';

const root = join(__dirname, '../..');
const OWNER = { email: 'owner@bench.test', password: 'bench-password-123' };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
}

function rssMb(pid: number | undefined): number {
  if (!pid) return 0;
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return line ? Number(line.replace(/\D+/g, '')) / 1024 : 0;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

async function gatewaySection(calls: number, concurrency: number) {
  const mock = new MockProviderProcess(root);
  await mock.start({ MOCK_REQUEST_LOG_LIMIT: '10' });
  const stack = new ProductionStack({
    root,
    apps: ['edge', 'control-plane', 'ledger', 'guardrail', 'router', 'provider-proxy'],
    databasePrefix: 'gw_bench',
    logLevel: 'error',
    extraEnv: {
      'control-plane': { GATEWAY_BOOTSTRAP_EMAIL: OWNER.email, GATEWAY_BOOTSTRAP_PASSWORD: OWNER.password },
      // The benchmark is one key hammering the gateway: lift the per-key guards it would trip.
      edge: { LOOP_GUARD_MAX_REQUESTS: '10000000', RATE_LIMIT_PER_HOUR: '10000000' },
    },
  });
  try {
    await stack.startAll();
    const fixture = new GatewayFixture(stack.edgeUrl, OWNER);
    await fixture.login();
    const project = await fixture.project({ models: [{ identifier: 'bench', base_url: `${mock.baseUrl}/v1` }], settings: { routing_tiers: { simple: 'bench', complex: 'bench' } } });
    const traceId = (await project.api.post('/api/v1/traces', {})).body.id as string;
    const input = 'Summarize the quarterly report in three bullet points for the sales team.';
    const direct = () =>
      fetch(`${mock.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
        body: JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: input }] }),
      }).then((r) => r.text());
    const viaGateway = async () => {
      const response = await project.api.post('/api/v1/executions', { trace_id: traceId, input });
      if (response.status !== 200) throw new Error(`execution answered ${response.status}: ${JSON.stringify(response.body)}`);
    };
    for (let i = 0; i < 50; i++) {
      await direct();
      await viaGateway();
    }
    const directMs: number[] = [];
    const gatewayMs: number[] = [];
    for (let i = 0; i < calls; i++) {
      directMs.push(await timed(direct));
      gatewayMs.push(await timed(viaGateway));
    }
    const started = performance.now();
    let done = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (done < calls) {
          done++;
          await viaGateway();
        }
      }),
    );
    const throughput = (done / (performance.now() - started)) * 1000;
    const memory = Object.fromEntries([...stack.apps.values()].map((app) => [app.name, Math.round(rssMb(app.process?.pid))]));
    return { direct: stats(directMs), gateway: stats(gatewayMs), overhead: stats(gatewayMs.map((ms, i) => ms - directMs[i])), throughput, concurrency, memory };
  } finally {
    await stack.stopAll();
    await mock.stop();
  }
}

async function main(): Promise<void> {
  const fmt = (n: number) => n.toFixed(2).padStart(8);
  const guardrail = await runGuardrailBench();
  const out: string[] = ['', '== guardrail (in-process, ms) =='];
  for (const row of guardrail.slice(0, 2)) out.push(`${row.name.padEnd(60)} p50 ${fmt(row.p50)}  p95 ${fmt(row.p95)}  max ${fmt(row.max)}  target ${row.targetOf} < ${row.targetMs}: ${row.pass ? 'PASS' : 'FAIL'}`);
  process.stdout.write(out.join('\n') + '\n');

  const calls = Number(process.env.BENCH_CALLS ?? 300);
  const gateway = await gatewaySection(calls, Number(process.env.BENCH_CONCURRENCY ?? 16));
  const lines = [
    '',
    `== gateway overhead per execution (production mode, ${calls} sequential calls, ms) ==`,
    `direct mock call            p50 ${fmt(gateway.direct.p50)}  p95 ${fmt(gateway.direct.p95)}  p99 ${fmt(gateway.direct.p99)}`,
    `POST /api/v1/executions     p50 ${fmt(gateway.gateway.p50)}  p95 ${fmt(gateway.gateway.p95)}  p99 ${fmt(gateway.gateway.p99)}`,
    `gateway overhead            p50 ${fmt(gateway.overhead.p50)}  p95 ${fmt(gateway.overhead.p95)}  p99 ${fmt(gateway.overhead.p99)}`,
    `throughput at concurrency ${gateway.concurrency}: ${gateway.throughput.toFixed(0)} executions/s (2 cores shared by every service)`,
    `resident memory after the run (MB): ${Object.entries(gateway.memory).map(([app, mb]) => `${app} ${mb}`).join(', ')}`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
  process.stdout.write(`${JSON.stringify({ metric: 'bench', guardrail: guardrail.slice(0, 2), gateway })}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
