import { Registry } from 'prom-client';
import { guardrailDecisionCounter } from './check-metrics';

describe('guardrailDecisionCounter', () => {
  it('counts each check by direction and outcome: allowed, or the reason it was not', async () => {
    const registry = new Registry();
    const observe = guardrailDecisionCounter(registry);
    observe('input', { allowed: true });
    observe('', { allowed: true, reason: '' });
    observe('output', { allowed: false, reason: 'secret_leaked' });
    observe('input', { allowed: false, reason: '' });
    const values = (await registry.getSingleMetric('guardrail_checks_total')!.get()).values.map(({ labels, value }) => ({ labels, value }));
    expect(values).toEqual([
      { labels: { direction: 'input', outcome: 'allowed' }, value: 2 },
      { labels: { direction: 'output', outcome: 'secret_leaked' }, value: 1 },
      { labels: { direction: 'input', outcome: 'blocked' }, value: 1 },
    ]);
  });
});
