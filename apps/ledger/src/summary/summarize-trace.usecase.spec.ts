import { makeStep, T0 } from './step-record.fixture';
import { summarizeTrace, toolOverheadMs } from './summarize-trace.usecase';

const infrastructure: Record<string, string> = { mini: 'openai-cloud', opus: 'anthropic-cloud', vault: 'on-prem' };
const infrastructureOf = (model: string) => infrastructure[model] ?? 'unknown';

describe('summarizeTrace', () => {
  it('summarizes an empty trace', () => {
    expect(summarizeTrace({ createdAt: T0, revenue: 0.5 }, [], infrastructureOf)).toEqual({
      total_latency_ms: 0,
      total_cost: 0,
      revenue: 0.5,
      gross_margin: 0.5,
      latency_p50: 0,
      latency_p95: 0,
      latency_p99: 0,
      step_count: 0,
      chain_depth: 0,
      tool_overhead_ms: null,
      stall_probability: 0,
      by_model: {},
      by_infrastructure: {},
    });
  });

  it('computes cost, margin, latency and the per-model and per-infrastructure split', () => {
    const steps = [
      makeStep({ id: 1, type: 'check', model: null, costUsd: 0, latencyMs: 20 }),
      makeStep({ id: 2, model: 'mini', costUsd: 0.1, latencyMs: 300 }),
      makeStep({ id: 3, model: 'opus', costUsd: 0.2, latencyMs: 900 }),
      makeStep({ id: 4, model: 'mini', costUsd: 0.3, latencyMs: 600 }),
      makeStep({ id: 5, model: 'ghost', costUsd: 0.05, latencyMs: 100 }),
      makeStep({ id: 6, type: 'log', model: null, costUsd: 0, latencyMs: 0, output: { user_rating: 5 } }),
    ];
    const summary = summarizeTrace({ createdAt: T0, revenue: 1 }, steps, infrastructureOf);
    expect(summary.total_cost).toBe(0.65);
    expect(summary.gross_margin).toBe(0.35);
    expect(summary.step_count).toBe(6);
    // log steps are not part of the latency percentiles: [20, 100, 300, 600, 900]
    expect(summary.latency_p50).toBe(300);
    expect(summary.latency_p95).toBeCloseTo(840);
    // last completion: step 4 started at T0 + 4 s and took 600 ms (step 6 at 6 s + 0 ms)
    expect(summary.total_latency_ms).toBe(6_000);
    expect(summary.by_model).toEqual({ mini: 0.4, opus: 0.2, ghost: 0.05 });
    expect(summary.by_infrastructure).toEqual({ 'openai-cloud': 0.4, 'anthropic-cloud': 0.2, unknown: 0.05 });
    expect(summary.tool_overhead_ms).toBeNull();
  });

  it('reports a negative margin when cost exceeds revenue', () => {
    const summary = summarizeTrace({ createdAt: T0, revenue: 0 }, [makeStep({ id: 1, costUsd: 0.25 })], infrastructureOf);
    expect(summary.gross_margin).toBe(-0.25);
  });

  it('falls back to `unknown` for an empty infrastructure label and keeps $0 models', () => {
    const summary = summarizeTrace({ createdAt: T0, revenue: 0 }, [makeStep({ id: 1, model: 'vault', costUsd: 0 })], () => '');
    expect(summary.by_infrastructure).toEqual({ unknown: 0 });
    expect(summary.by_model).toEqual({ vault: 0 });
  });

  it('sums tool time and computes chain depth for a tool loop', () => {
    const steps = [
      makeStep({ id: 1, type: 'tool_call', toolName: 'search', toolLatencyMs: 250 }),
      makeStep({ id: 2, type: 'tool_call', toolName: 'fetch', parentStepId: 1, toolLatencyMs: 750 }),
      makeStep({ id: 3, parentStepId: 2 }),
    ];
    const summary = summarizeTrace({ createdAt: T0, revenue: 0 }, steps, infrastructureOf);
    expect(summary.tool_overhead_ms).toBe(1_000);
    expect(summary.chain_depth).toBe(2);
  });

  it('drops floating-point noise from summed costs', () => {
    const steps = [makeStep({ id: 1, costUsd: 0.1 }), makeStep({ id: 2, costUsd: 0.2 })];
    expect(summarizeTrace({ createdAt: T0, revenue: 0 }, steps, infrastructureOf).total_cost).toBe(0.3);
  });
});

describe('toolOverheadMs', () => {
  it('is null without tools and 0 for a tool round whose time was never reported', () => {
    expect(toolOverheadMs([makeStep({ id: 1 })])).toBeNull();
    expect(toolOverheadMs([makeStep({ id: 1, type: 'tool_call' })])).toBe(0);
  });
});
