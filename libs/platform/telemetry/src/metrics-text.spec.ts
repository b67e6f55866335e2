import { metricSamples, metricSum } from './metrics-text';

const exposition = [
  '# HELP gateway_requests_total Requests handled, by method and status',
  '# TYPE gateway_requests_total counter',
  'gateway_requests_total{method="/a.B/Get",status="OK",service="ledger"} 3',
  'gateway_requests_total{method="/a.B/Get",status="NOT_FOUND",service="ledger"} 1',
  'gateway_requests_total{method="/a.B/Put",status="OK",service="ledger"} 5',
  'gateway_requests_total_other 9',
  'nodejs_heap_size_used_bytes 1048576',
].join('\n');

describe('metricSamples / metricSum', () => {
  it('reads the samples of one metric with their labels, not those of a longer name', () => {
    expect(metricSamples(exposition, 'gateway_requests_total')).toEqual([
      { labels: { method: '/a.B/Get', status: 'OK', service: 'ledger' }, value: 3 },
      { labels: { method: '/a.B/Get', status: 'NOT_FOUND', service: 'ledger' }, value: 1 },
      { labels: { method: '/a.B/Put', status: 'OK', service: 'ledger' }, value: 5 },
    ]);
    expect(metricSamples(exposition, 'nodejs_heap_size_used_bytes')).toEqual([{ labels: {}, value: 1048576 }]);
  });

  it('sums the samples whose labels include the given ones', () => {
    expect(metricSum(exposition, 'gateway_requests_total')).toBe(9);
    expect(metricSum(exposition, 'gateway_requests_total', { method: '/a.B/Get' })).toBe(4);
    expect(metricSum(exposition, 'gateway_requests_total', { method: '/a.B/Get', status: 'OK' })).toBe(3);
    expect(metricSum(exposition, 'missing_metric')).toBe(0);
  });
});
