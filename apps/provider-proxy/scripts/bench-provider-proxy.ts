// Provider-proxy overhead per model call, measured (never asserted): production mode (control-plane
// and provider-proxy as their own processes from dist/, real PostgreSQL and NATS), the mock
// provider as its own process with zero latency. Each sample pair is one direct call to the mock
// and one gRPC call through provider-proxy with the same conversation, interleaved so both see
// the same machine load. Run: `npx nx run-many -t bundle -p control-plane,provider-proxy,mock-provider`
// then `npx tsx apps/provider-proxy/scripts/bench-provider-proxy.ts` (BENCH_CALLS, default 300).
import { join } from 'node:path';
import { createServiceClient } from '@gateway/grpc';
import { providerproxy } from '@gateway/proto';
import { ControlPlaneFixture, MockProviderProcess, ProductionStack, sampleStats, timed, type SampleStats } from '@gateway/testing';

const root = join(__dirname, '../../..');
const OWNER = { email: 'owner@proxy-bench.test', password: 'proxy-bench-password-123' };
const INPUT = 'Summarize the quarterly report in three bullet points for the sales team.';

export async function runProviderProxyBench(calls = 300) {
  const mock = new MockProviderProcess(root);
  await mock.start({ MOCK_REQUEST_LOG_LIMIT: '10' });
  const stack = new ProductionStack({
    root,
    apps: ['control-plane', 'provider-proxy'],
    databasePrefix: 'gw_bench_proxy',
    logLevel: 'error',
    extraEnv: { 'control-plane': { GATEWAY_BOOTSTRAP_EMAIL: OWNER.email, GATEWAY_BOOTSTRAP_PASSWORD: OWNER.password } },
  });
  const control = { fixture: undefined as ControlPlaneFixture | undefined };
  try {
    await stack.startAll();
    control.fixture = new ControlPlaneFixture(stack.address('control-plane'), stack.internalToken);
    await control.fixture.login(OWNER.email, OWNER.password);
    const projectId = await control.fixture.createProject('bench');
    await control.fixture.createModel(projectId, { identifier: 'bench', provider: 'openai', base_url: `${mock.baseUrl}/v1`, api_key: 'sk-bench', input_cost_per_1k: 0.00015, output_cost_per_1k: 0.0006 });
    const proxy = createServiceClient(providerproxy.ProviderProxyServiceService, { address: stack.address('provider-proxy'), internalToken: stack.internalToken });
    const request: providerproxy.CompletionRequest = {
      projectId,
      modelPath: ['bench'],
      messages: [{ role: 'user', content: INPUT, toolCalls: [], toolCallId: '', name: '' }],
      tools: [],
      maxTokens: undefined,
      privateModelsOnly: false,
    };
    const direct = () =>
      fetch(`${mock.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
        body: JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: INPUT }] }),
      }).then((response) => response.json());
    const directStream = () =>
      fetch(`${mock.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
        body: JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: INPUT }], stream: true, stream_options: { include_usage: true } }),
      }).then((response) => response.text());
    const viaProxy = () => proxy.complete(request);
    const viaProxyStream = async () => {
      for await (const event of proxy.streamComplete(request)) if (event.done && event.done.costUsd <= 0) throw new Error('stream not costed');
    };
    try {
      for (let i = 0; i < 50; i++) {
        await direct();
        await viaProxy();
        await directStream();
        await viaProxyStream();
      }
      const samples = { direct: [] as number[], proxy: [] as number[], directStream: [] as number[], proxyStream: [] as number[] };
      for (let i = 0; i < calls; i++) {
        samples.direct.push(await timed(direct));
        samples.proxy.push(await timed(viaProxy));
        samples.directStream.push(await timed(directStream));
        samples.proxyStream.push(await timed(viaProxyStream));
      }
      return {
        calls,
        direct: sampleStats(samples.direct),
        proxy: sampleStats(samples.proxy),
        overhead: sampleStats(samples.proxy.map((ms, i) => ms - samples.direct[i])),
        directStream: sampleStats(samples.directStream),
        proxyStream: sampleStats(samples.proxyStream),
        streamOverhead: sampleStats(samples.proxyStream.map((ms, i) => ms - samples.directStream[i])),
      };
    } finally {
      proxy.close();
    }
  } finally {
    control.fixture?.close();
    await stack.stopAll();
    await mock.stop();
  }
}

async function main(): Promise<void> {
  const result = await runProviderProxyBench(Number(process.env.BENCH_CALLS ?? 300));
  const fmt = (n: number) => n.toFixed(2).padStart(8);
  const row = (name: string, s: SampleStats) => `${name.padEnd(34)} p50 ${fmt(s.p50)}  p95 ${fmt(s.p95)}  p99 ${fmt(s.p99)}`;
  process.stdout.write(
    [
      '',
      `== provider-proxy overhead per call (production mode, ${result.calls} sequential calls each, ms) ==`,
      row('direct mock call', result.direct),
      row('provider-proxy Complete (gRPC)', result.proxy),
      row('overhead, unary', result.overhead),
      row('direct mock stream', result.directStream),
      row('provider-proxy StreamComplete', result.proxyStream),
      row('overhead, stream', result.streamOverhead),
      '',
    ].join('\n'),
  );
  process.stdout.write(`${JSON.stringify({ metric: 'provider_proxy_bench', ...result })}\n`);
}

if (require.main === module) void main();
