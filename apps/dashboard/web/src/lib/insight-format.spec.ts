import { insightLabel, insightValue } from './insight-format';

describe('insight data formatting', () => {
  it('labels keys with their units', () => {
    expect(insightLabel('suggested_model')).toBe('Suggested model');
    expect(insightLabel('current_cost_usd')).toBe('Current cost (USD)');
    expect(insightLabel('savings_pct')).toBe('Savings (%)');
    expect(insightLabel('p99_latency_ms')).toBe('P99 latency (ms)');
  });

  it('formats values by suffix and flattens lists and objects', () => {
    expect(insightValue('savings_pct', 94.04)).toBe('94.0%');
    expect(insightValue('current_cost_usd', 0.00105)).toBe('$0.00105');
    expect(insightValue('threshold_ms', 200)).toBe('200 ms');
    expect(insightValue('sample_count', 5)).toBe('5');
    expect(insightValue('models', ['mock-large', 'mock-mini'])).toBe('mock-large; mock-mini');
    expect(insightValue('models', [{ model: 'mock-large', sample_count: 1, p99_latency_ms: 431 }])).toBe('model: mock-large, sample count: 1, p99 latency ms: 431 ms');
    expect(insightValue('suggested_rule', { intent_routes: { summarization: 'mock-mini' } })).toBe('intent routes: summarization: mock-mini');
    expect(insightValue('suggested_model', null)).toBe('—');
  });
});
