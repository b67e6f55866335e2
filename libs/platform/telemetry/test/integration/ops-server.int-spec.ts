import { createServiceMetrics, startOpsServer } from '../../src';

describe('ops server', () => {
  it('answers /healthz, /readyz from the dependency check, and /metrics; /readyz turns 503 once draining', async () => {
    const metrics = createServiceMetrics('ops-it', false);
    metrics.requests.inc({ method: 'GET', status: '200' });
    let dependenciesUp = true;
    const ops = await startOpsServer({ host: '127.0.0.1', port: 0, registry: metrics.registry, isReady: () => dependenciesUp, version: '1.2.3' });
    const get = async (path: string) => {
      const response = await fetch(`http://127.0.0.1:${ops.port}${path}`);
      return { status: response.status, text: await response.text() };
    };
    try {
      expect(await get('/healthz')).toEqual({ status: 200, text: JSON.stringify({ status: 'ok', version: '1.2.3' }) });
      expect(await get('/readyz')).toEqual({ status: 200, text: JSON.stringify({ status: 'ready' }) });
      dependenciesUp = false;
      expect(await get('/readyz')).toEqual({ status: 503, text: JSON.stringify({ status: 'not_ready' }) });
      dependenciesUp = true;

      ops.setDraining();
      expect(await get('/readyz')).toEqual({ status: 503, text: JSON.stringify({ status: 'draining' }) });
      // Still alive and scrapeable while the drain runs.
      expect((await get('/healthz')).status).toBe(200);
      const scraped = await get('/metrics');
      expect(scraped.status).toBe(200);
      expect(scraped.text).toContain('gateway_requests_total{method="GET",status="200",service="ops-it"} 1');
      expect(await get('/nope')).toEqual({ status: 404, text: JSON.stringify({ error: 'Not found' }) });
    } finally {
      await ops.close();
    }
    await expect(fetch(`http://127.0.0.1:${ops.port}/healthz`)).rejects.toThrow();
  });
});
