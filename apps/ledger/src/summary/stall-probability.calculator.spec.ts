import { makeStep, T0 } from './step-record.fixture';
import { isStallFlagged, stableStringify, stallProbability } from './stall-probability.calculator';

/** `count` acting steps one second apart, each 500 ms long. */
function sameCall(count: number, output: unknown = { text: 'same' }) {
  return Array.from({ length: count }, (_, index) =>
    makeStep({ id: index + 1, input: 'search the docs', output, latencyMs: 500, createdAt: new Date(T0.getTime() + index * 1_000) }),
  );
}

describe('stallProbability', () => {
  it('is 0 for an empty trace, a single step and a varied trace', () => {
    expect(stallProbability([])).toBe(0);
    expect(stallProbability([makeStep({ id: 1 })])).toBe(0);
    expect(stallProbability([makeStep({ id: 1 }), makeStep({ id: 2 }), makeStep({ id: 3 })])).toBe(0);
  });

  it('never flags one repeated question, and flags a call repeated four times', () => {
    // 2 identical: R = 1/3, T = (1.5 s − 0.5 s) / 1.5 s
    const two = stallProbability(sameCall(2));
    expect(two).toBeCloseTo(0.6 / 3 + 0.25 * (1_000 / 1_500), 4);
    const three = stallProbability(sameCall(3));
    const four = stallProbability(sameCall(4));
    expect(two).toBeLessThan(three);
    expect(three).toBeLessThan(four);
    expect(isStallFlagged(three)).toBe(false);
    // 4 identical calls: R = 1, T = 3 s / 3.5 s → 0.6 + 0.2143 = 0.8143
    expect(four).toBe(0.8143);
    expect(isStallFlagged(four)).toBe(true);
  });

  it('treats equal objects with different key order as a repeat, and new output as progress', () => {
    const steps = [
      makeStep({ id: 1, input: 'q', output: { a: 1, b: 2 } }),
      makeStep({ id: 2, input: 'q', output: { b: 2, a: 1 } }),
    ];
    expect(stallProbability(steps)).toBeGreaterThan(0.2);
    const retriedWithNewAnswer = [makeStep({ id: 1, input: 'q', output: 'x' }), makeStep({ id: 2, input: 'q', output: 'y' })];
    expect(stallProbability(retriedWithNewAnswer)).toBe(0);
  });

  it('ignores check and log steps but counts repeated blocked attempts', () => {
    const logs = [makeStep({ id: 1, type: 'log', output: { ok: 1 } }), makeStep({ id: 2, type: 'log', output: { ok: 1 } })];
    expect(stallProbability(logs)).toBe(0);
    const blocked = [1, 2, 3, 4].map((id) => makeStep({ id, type: 'blocked', input: 'leak the key', output: 'Request blocked by risk check' }));
    expect(isStallFlagged(stallProbability(blocked))).toBe(true);
  });

  it('adds depth: 0 up to one tool round, saturating at six rounds', () => {
    const chain = (depth: number) =>
      Array.from({ length: depth }, (_, index) => makeStep({ id: index + 1, type: 'tool_call', parentStepId: index === 0 ? null : index }));
    expect(stallProbability(chain(1))).toBe(0);
    expect(stallProbability(chain(3))).toBeCloseTo(0.15 * (2 / 5), 4);
    expect(stallProbability(chain(6))).toBeCloseTo(0.15, 4);
    expect(stallProbability(chain(9))).toBeCloseTo(0.15, 4);
  });

  it('stays within 0..1 for a deep identical loop', () => {
    const loop = Array.from({ length: 10 }, (_, index) =>
      makeStep({ id: index + 1, type: 'tool_call', toolName: 'search', input: 'same', output: 'same', parentStepId: index === 0 ? null : index }),
    );
    const probability = stallProbability(loop);
    expect(probability).toBeGreaterThan(0.95);
    expect(probability).toBeLessThanOrEqual(1);
  });
});

describe('stableStringify', () => {
  it('sorts keys at every level and drops undefined members', () => {
    expect(stableStringify({ b: [{ d: 1, c: 2 }], a: undefined, e: null })).toBe('{"b":[{"c":2,"d":1}],"e":null}');
    expect(stableStringify(undefined)).toBe('null');
  });
});
