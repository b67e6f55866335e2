import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { createServiceClient } from '@gateway/grpc';
import { controlplane, guardrail, ledger, router } from '@gateway/proto';
import { metricSamples, SpanKind } from '@gateway/telemetry';
import type { HarnessReady, HarnessSpan } from './embedded-stack.harness';

/**
 * Issue 10 (telemetry), the embedded launcher's way: every app's built bundle in one process
 * (embedded-stack.harness.ts) with the in-process bus, on real PostgreSQL, and an in-memory span
 * exporter registered before the bundles load. One execution sent with a `traceparent` must come
 * back as one trace: edge SERVER → in-process guardrail scans and CLIENT/SERVER per gRPC hop →
 * CONSUMER of step.recorded in
 * analytics and control-plane, every parent link in place. Then /metrics of each service.
 * Build first: npx nx run-many -t bundle.
 */

const root = resolve(__dirname, '../../../..');

/** Prometheus text → samples of one metric, labels parsed. */
describe('one trace from edge through every gRPC hop to the NATS consumers (embedded bundles)', () => {
  let harness: ChildProcess;
  let ready: HarnessReady;
  let edgeUrl = '';
  let rawKey = '';
  let projectId = 0;

  const spans = () =>
    new Promise<HarnessSpan[]>((resolveSpans) => {
      const onMessage = (message: { type: string; spans?: HarnessSpan[] }) => {
        if (message.type !== 'spans') return;
        harness.off('message', onMessage);
        resolveSpans(message.spans!);
      };
      harness.on('message', onMessage);
      harness.send({ type: 'spans' });
    });

  beforeAll(async () => {
    harness = fork(join(__dirname, 'embedded-stack.harness.ts'), [], {
      cwd: root,
      execArgv: ['--import', 'tsx'],
      env: { PATH: process.env.PATH ?? '', HARNESS_DATABASE_PREFIX: 'gw_it_span', ...(process.env.POSTGRES_URL ? { POSTGRES_URL: process.env.POSTGRES_URL } : {}) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    ready = await new Promise<HarnessReady>((resolveReady, reject) => {
      harness.once('exit', (code) => reject(new Error(`harness exited with code ${code}`)));
      harness.on('message', (message: { type: string }) => {
        if (message.type === 'ready') resolveReady(message as HarnessReady);
      });
    });
    edgeUrl = `http://127.0.0.1:${ready.apps.edge.port}`;

    // Owner, project, model on the mock provider, routing tiers and an API key, over control-plane gRPC.
    const client = createServiceClient(controlplane.ControlPlaneServiceService, { address: `127.0.0.1:${ready.apps['control-plane'].grpcPort}`, internalToken: ready.internalToken });
    try {
      const { user } = await client.bootstrap({ email: 'owner@span-tree.test', password: 'span-tree-password-1', organizationName: 'Span tree' });
      const actor = { userId: user!.id, organizationId: user!.organizationId, role: 'owner', keyId: '', ip: '127.0.0.1', userAgent: 'span-tree-test' };
      const project = await client.createProject({ actor, name: 'Traced', description: '', settings: {} });
      projectId = project.id;
      await client.createModel({
        actor,
        projectId,
        modelId: 0,
        fields: { name: 'fast', identifier: 'fast', provider: 'openai', base_url: `http://127.0.0.1:${ready.mockPort}/v1`, api_key: 'mock-key', is_public: true, input_cost_per_1k: 0.001, output_cost_per_1k: 0.002 },
      });
      await client.updateProject({ actor, projectId, settings: { routing_tiers: { simple: 'fast', complex: 'fast', secure: 'fast' } } });
      rawKey = (await client.createKey({ actor, name: 'traced key', projectId, loopGuardExempt: false })).rawKey;
    } finally {
      client.close();
    }
  }, 180_000);

  afterAll(async () => {
    if (!harness || harness.exitCode !== null) return;
    const exited = new Promise((resolveExit) => harness.once('exit', resolveExit));
    harness.send({ type: 'stop' });
    await exited;
  }, 60_000);

  const api = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${edgeUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${rawKey}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('keeps one trace id and correct parent links from the edge to the step.recorded consumers', async () => {
    const created = await api('/api/v1/traces', {});
    expect(created.status).toBe(201);
    const { id: gatewayTraceId } = (await created.json()) as { id: string };

    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const response = await api('/api/v1/executions', { trace_id: gatewayTraceId, input: 'What is the capital of France?' }, { traceparent: `00-${traceId}-${callerSpanId}-01` });
    expect(response.status).toBe(200);

    const inTrace = async () => (await spans()).filter((span) => span.traceId === traceId);
    const consumers = (list: HarnessSpan[]) => list.filter((span) => span.kind === SpanKind.CONSUMER && span.name === 'consume gateway.v1.step.recorded');
    // The consumers run after the outbox relay published the step's event.
    const deadline = Date.now() + 15_000;
    while (new Set(consumers(await inTrace()).map((span) => span.scope)).size < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 200));

    const trace = await inTrace();
    const byId = new Map(trace.map((span) => [span.spanId, span]));
    const parentOf = (span: HarnessSpan) => byId.get(span.parentSpanId ?? '');
    const ancestors = (span: HarnessSpan): HarnessSpan[] => {
      const chain: HarnessSpan[] = [];
      for (let current = parentOf(span); current; current = parentOf(current)) chain.push(current);
      return chain;
    };

    // The edge continues the caller's trace: its SERVER span is the child of the caller's span.
    const edgeSpans = trace.filter((span) => span.kind === SpanKind.SERVER && span.scope === 'edge');
    expect(edgeSpans.map((span) => span.name)).toEqual(['POST /api/v1/executions']);
    const [edgeSpan] = edgeSpans;
    expect(edgeSpan.parentSpanId).toBe(callerSpanId);

    // Every other span hangs off a span of this trace: no orphan, no second root.
    for (const span of trace) {
      if (span === edgeSpan) continue;
      expect({ span: span.name, parentFound: parentOf(span) !== undefined }).toEqual({ span: span.name, parentFound: true });
      expect(ancestors(span)).toContain(edgeSpan);
    }

    // Each gRPC hop: a SERVER span (in the called service) whose parent is the caller's CLIENT span of the same method.
    const services = ['controlplane.v1.ControlPlaneService', 'ledger.v1.LedgerService', 'providerproxy.v1.ProviderProxyService'];
    for (const service of services) {
      const servers = trace.filter((span) => span.kind === SpanKind.SERVER && span.name.startsWith(`/gateway.${service}/`));
      expect({ service, servers: servers.length > 0 }).toEqual({ service, servers: true });
      for (const server of servers) {
        const client = parentOf(server)!;
        expect({ server: server.name, parentKind: client.kind, parentName: client.name }).toEqual({ server: server.name, parentKind: SpanKind.CLIENT, parentName: server.name });
      }
    }
    const names = trace.filter((span) => span.kind === SpanKind.SERVER).map((span) => span.name);
    expect(names).toEqual(
      expect.arrayContaining([
        '/gateway.providerproxy.v1.ProviderProxyService/Complete',
        '/gateway.ledger.v1.LedgerService/RecordStep',
      ]),
    );
    // The guardrail engine runs in edge's process (input and output scans): INTERNAL spans under
    // the edge's SERVER span, and no hop to the guardrail or router service.
    const scans = trace.filter((span) => span.name === 'guardrail check');
    expect(scans.map((span) => ({ kind: span.kind, direction: span.attributes['gateway.direction'], outcome: span.attributes['gateway.outcome'], scope: span.scope })).sort((a, b) => String(a.direction).localeCompare(String(b.direction)))).toEqual([
      { kind: SpanKind.INTERNAL, direction: 'input', outcome: 'allowed', scope: 'edge' },
      { kind: SpanKind.INTERNAL, direction: 'output', outcome: 'allowed', scope: 'edge' },
    ]);
    for (const scan of scans) expect(ancestors(scan)).toContain(edgeSpan);
    expect(trace.filter((span) => /GuardrailService|RouterService/.test(span.name))).toEqual([]);
    // provider-proxy looks up the model's credentials: a hop nested inside another service's call.
    const nested = trace.filter((span) => span.kind === SpanKind.SERVER && span.name.startsWith('/gateway.controlplane.v1.ControlPlaneService/') && ancestors(span).some((a) => a.name === '/gateway.providerproxy.v1.ProviderProxyService/Complete' && a.kind === SpanKind.SERVER));
    expect(nested.length).toBeGreaterThan(0);
    // ... and calls the model provider in a CLIENT span of its own.
    const upstream = trace.filter((span) => span.kind === SpanKind.CLIENT && span.name === 'provider complete');
    expect(upstream.map((span) => ({ parent: parentOf(span)?.name, model: span.attributes['gen_ai.response.model'], outcome: span.attributes['gateway.outcome'] }))).toEqual([
      { parent: '/gateway.providerproxy.v1.ProviderProxyService/Complete', model: 'fast', outcome: 'ok' },
    ]);

    // step.recorded is consumed by analytics and control-plane (spend), each in a CONSUMER span
    // whose parent is the ledger's RecordStep call that committed the event to the outbox.
    const consumed = consumers(trace);
    expect(consumed.map((span) => span.scope).sort()).toEqual(['analytics', 'control-plane']);
    for (const consumer of consumed) {
      const parent = parentOf(consumer)!;
      expect({ kind: parent.kind, name: parent.name }).toEqual({ kind: SpanKind.SERVER, name: '/gateway.ledger.v1.LedgerService/RecordStep' });
    }
  });

  it('exports request counts, latencies, errors, upstream latency and guardrail decisions on each /metrics', async () => {
    // One refused call per gRPC service under test: errors are counted by method and code.
    const ledgerClient = createServiceClient(ledger.LedgerServiceService, { address: `127.0.0.1:${ready.apps.ledger.grpcPort}`, internalToken: ready.internalToken });
    const actor = { userId: '1', organizationId: 1, role: 'owner', keyId: '', ip: '127.0.0.1', userAgent: 'metrics-test' };
    await expect(ledgerClient.getTraceHeader({ actor, projectId, traceId: '00000000-0000-4000-8000-000000000000' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    ledgerClient.close();
    // The guardrail and router services serve internal teams (edge runs both engines in-process).
    const guardrailClient = createServiceClient(guardrail.GuardrailServiceService, { address: `127.0.0.1:${ready.apps.guardrail.grpcPort}`, internalToken: ready.internalToken });
    expect(await guardrailClient.check(guardrail.CheckRequest.fromPartial({ text: 'Hello there', direction: 'input' }))).toMatchObject({ allowed: true });
    guardrailClient.close();
    const routerClient = createServiceClient(router.RouterServiceService, { address: `127.0.0.1:${ready.apps.router.grpcPort}`, internalToken: ready.internalToken });
    expect(await routerClient.route({ projectId, input: 'Hello there', tools: [], sensitive: false, attachments: 0 })).toMatchObject({ status: 'resolved', model: 'fast' });
    routerClient.close();

    const scrape = async (name: string) => {
      const response = await fetch(`http://127.0.0.1:${ready.apps[name].opsPort}/metrics`);
      expect(response.status).toBe(200);
      return response.text();
    };
    for (const name of ['control-plane', 'ledger', 'guardrail', 'router', 'provider-proxy']) {
      const text = await scrape(name);
      const requests = metricSamples(text, 'gateway_requests_total').filter((s) => s.labels.service === name);
      expect({ name, handled: requests.reduce((sum, s) => sum + s.value, 0) > 0 }).toEqual({ name, handled: true });
      expect(metricSamples(text, 'gateway_request_duration_seconds_count').filter((s) => s.labels.service === name).length).toBeGreaterThan(0);
      expect(text).toContain('# TYPE gateway_request_errors_total counter');
      expect(text).toContain('# TYPE gateway_requests_in_flight gauge');
    }

    // Consumers: step.recorded handled by analytics (rollups) and control-plane (spend).
    for (const name of ['analytics', 'control-plane']) {
      const consumed = metricSamples(await scrape(name), 'gateway_events_consumed_total').filter((s) => s.labels.subject === 'gateway.v1.step.recorded' && s.labels.outcome === 'ok');
      expect({ name, consumed: consumed.reduce((sum, s) => sum + s.value, 0) }).toEqual({ name, consumed: 1 });
    }

    const ledgerText = await scrape('ledger');
    expect(metricSamples(ledgerText, 'gateway_request_errors_total')).toContainEqual({ labels: { method: '/gateway.ledger.v1.LedgerService/GetTraceHeader', code: 'NOT_FOUND', service: 'ledger' }, value: 1 });
    expect(metricSamples(ledgerText, 'gateway_requests_total')).toContainEqual(expect.objectContaining({ labels: { method: '/gateway.ledger.v1.LedgerService/RecordStep', status: 'OK', service: 'ledger' } }));

    const upstream = metricSamples(await scrape('provider-proxy'), 'gateway_provider_request_duration_seconds_count');
    expect(upstream).toContainEqual({ labels: { provider: 'openai', model: 'fast', outcome: 'ok', mode: 'complete', service: 'provider-proxy' }, value: 1 });

    const decisions = metricSamples(await scrape('guardrail'), 'guardrail_checks_total');
    expect(decisions).toContainEqual(expect.objectContaining({ labels: { direction: 'input', outcome: 'allowed', service: 'guardrail' } }));

    const edgeText = await scrape('edge');
    // The execution's input and output scans, counted where they ran.
    const edgeDecisions = metricSamples(edgeText, 'guardrail_checks_total');
    expect(edgeDecisions).toContainEqual({ labels: { direction: 'input', outcome: 'allowed', service: 'edge' }, value: 1 });
    expect(edgeDecisions).toContainEqual({ labels: { direction: 'output', outcome: 'allowed', service: 'edge' }, value: 1 });
    expect(metricSamples(edgeText, 'gateway_requests_total')).toContainEqual(expect.objectContaining({ labels: { method: 'POST', status: '200', service: 'edge' } }));
    // Spend: the USD the execution's step recorded, per project and model.
    const spend = metricSamples(edgeText, 'gateway_spend_usd_total');
    expect(spend.map((s) => s.labels)).toEqual([{ project_id: String(projectId), model: 'fast', service: 'edge' }]);
    expect(spend[0].value).toBeGreaterThan(0);
  });
});
