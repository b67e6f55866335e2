import { gradingPolicyFrom } from '../grading';
import { stepRow, traceRow } from './ledger-rows.fixture';
import { liveSecurity, liveSummary, routingDecisionOf, snapshotOf, viewOf } from './trace-view';

const policy = gradingPolicyFrom({ routing_tiers: { simple: 'mini', complex: 'large' } }, [
  { identifier: 'mini', inputCostPer1k: 0.00015, outputCostPer1k: 0.0006, additionalConfig: { infrastructure: 'cloud-a' } },
  { identifier: 'large', inputCostPer1k: 0.0025, outputCostPer1k: 0.01, additionalConfig: { infrastructure: 'cloud-b' } },
]);

describe('liveSecurity', () => {
  it('ORs the flags over the steps', () => {
    const security = liveSecurity([stepRow(1), stepRow(2, { piiDetected: true }), stepRow(3, { secretLeaked: true })], []);
    expect(security).toMatchObject({ piiDetected: true, injectionAttempt: false, secretLeaked: true });
  });

  it('averages tool fidelity over the scored steps and is 1 without tool calls', () => {
    expect(liveSecurity([stepRow(1)], []).toolFidelityScore).toBe(1);
    expect(liveSecurity([stepRow(1, { toolFidelityScore: 1 }), stepRow(2, { toolFidelityScore: 0 }), stepRow(3)], []).toolFidelityScore).toBe(0.5);
  });

  it('averages shadow scores and is null without any', () => {
    expect(liveSecurity([stepRow(1)], []).shadowScore).toBeNull();
    expect(liveSecurity([stepRow(1)], [{ score: 0.9 }, { score: 0.5 }]).shadowScore).toBe(0.7);
  });
});

describe('routingDecisionOf', () => {
  it('is the tier and model of the latest routed run step', () => {
    const steps = [stepRow(1, { tier: 'simple', model: 'mini' }), stepRow(2, { tier: 'complex', model: 'large' }), stepRow(3, { tier: '', model: 'mini' }), stepRow(4, { type: 'check', tier: 'secure', model: '' })];
    expect(routingDecisionOf(traceRow(), steps)).toEqual({ tier: 'complex', model: 'large' });
  });

  it('falls back to the decision stored on the trace, else null', () => {
    expect(routingDecisionOf(traceRow({ routingTier: 'simple', routingModel: 'mini' }), [])).toEqual({ tier: 'simple', model: 'mini' });
    expect(routingDecisionOf(traceRow(), [stepRow(1, { tier: '' })])).toBeNull();
  });
});

describe('liveSummary', () => {
  it('labels infrastructure from the step, else the registry, else unknown', () => {
    const steps = [stepRow(1, { model: 'mini', infrastructure: 'edge-recorded', cost: 0.001 }), stepRow(2, { model: 'large', cost: 0.01 }), stepRow(3, { model: 'other', cost: 0.1 })];
    expect(liveSummary(traceRow(), steps, policy).by_infrastructure).toEqual({ 'edge-recorded': 0.001, 'cloud-b': 0.01, unknown: 0.1 });
    expect(liveSummary(traceRow(), steps, policy).by_model).toEqual({ mini: 0.001, large: 0.01, other: 0.1 });
  });
});

describe('snapshotOf', () => {
  it('grades with a policy', () => {
    const snapshot = snapshotOf(traceRow(), [stepRow(1, { model: 'large', tier: 'simple', cost: 0.01 })], [], policy);
    expect(snapshot.grades).toEqual({ overall: 'B', waste: 'B', latency: 'A' });
    expect(snapshot.findings.join(' ')).toContain('large used for a simple input');
  });

  it('keeps the stored grades without a policy', () => {
    const trace = traceRow({ grades: { overall: 'C', waste: 'C', latency: 'A' }, gradeFindings: ['kept'] });
    const snapshot = snapshotOf(trace, [stepRow(1)], [], null);
    expect(snapshot.grades).toEqual({ overall: 'C', waste: 'C', latency: 'A' });
    expect(snapshot.findings).toEqual(['kept']);
  });
});

describe('viewOf', () => {
  it('summarizes an open trace live, without grades', () => {
    const view = viewOf(traceRow(), [stepRow(1, { cost: 0.25 })], []);
    expect(view.summary.total_cost).toBe(0.25);
    expect(view.grades).toBeNull();
  });

  it('answers the sealed snapshot of a completed trace even after steps were purged', () => {
    const sealed = snapshotOf(traceRow(), [stepRow(1, { cost: 0.25 })], [{ score: 0.4 }], policy);
    const trace = traceRow({
      status: 'completed',
      completedAt: new Date(),
      summary: sealed.summary as never,
      security: sealed.security as never,
      grades: sealed.grades as never,
      gradeFindings: sealed.findings,
    });
    const view = viewOf(trace, [], []);
    expect(view.summary.total_cost).toBe(0.25);
    expect(view.security.shadowScore).toBe(0.4);
    expect(view.grades).toEqual(sealed.grades);
  });
});
