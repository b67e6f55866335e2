import { createServiceMetrics, recordRequest, serviceMetrics, startRequest } from './metrics';

async function value(metrics: ReturnType<typeof createServiceMetrics>, name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = await metrics.registry.getSingleMetric(name)!.get();
  const sample = metric.values.find((v) => Object.entries(labels).every(([key, expected]) => v.labels[key] === expected) && !('le' in v.labels));
  return sample?.value ?? 0;
}

describe('service metrics', () => {
  it('counts requests, latency and errors per method, and tracks what is in flight', async () => {
    const metrics = createServiceMetrics('metrics-spec', false);
    const ok = startRequest(metrics, '/svc/Ok');
    const failing = startRequest(metrics, '/svc/Fail');
    expect(await value(metrics, 'gateway_requests_in_flight')).toBe(2);
    ok.finish('OK');
    failing.finish('NOT_FOUND', 'NOT_FOUND');
    failing.finish('NOT_FOUND', 'NOT_FOUND'); // once only
    expect(await value(metrics, 'gateway_requests_in_flight')).toBe(0);
    expect(await value(metrics, 'gateway_requests_total', { method: '/svc/Ok', status: 'OK' })).toBe(1);
    expect(await value(metrics, 'gateway_requests_total', { method: '/svc/Fail', status: 'NOT_FOUND' })).toBe(1);
    expect(await value(metrics, 'gateway_request_errors_total', { method: '/svc/Fail', code: 'NOT_FOUND' })).toBe(1);
    expect(await value(metrics, 'gateway_request_errors_total', { method: '/svc/Ok' })).toBe(0);
    expect(await metrics.registry.metrics()).toMatch(/gateway_request_duration_seconds_count\{service="metrics-spec",method="\/svc\/Ok"\} 1/);
  });

  it('labels every sample with the service and is found by service name (for the bus consumers)', async () => {
    const metrics = createServiceMetrics('lookup-spec', false);
    recordRequest(metrics, { method: 'GET', status: '503', seconds: 0.01, errorCode: '503' });
    expect(serviceMetrics('lookup-spec')).toBe(metrics);
    expect(serviceMetrics('nobody')).toBeUndefined();
    const text = await metrics.registry.metrics();
    expect(text).toContain('gateway_request_errors_total{method="GET",code="503",service="lookup-spec"} 1');
  });
});
