import { chainDepth } from './chain-depth.calculator';
import { makeStep } from './step-record.fixture';

describe('chainDepth', () => {
  it('is 0 without tool calls', () => {
    expect(chainDepth([])).toBe(0);
    expect(chainDepth([makeStep({ id: 1 }), makeStep({ id: 2, parentStepId: 1 })])).toBe(0);
  });

  it('is 1 for one tool round answered by a run', () => {
    expect(chainDepth([makeStep({ id: 1, type: 'tool_call' }), makeStep({ id: 2, parentStepId: 1 })])).toBe(1);
  });

  it('counts nested tool rounds along the parent chain', () => {
    const steps = [
      makeStep({ id: 1, type: 'tool_call' }),
      makeStep({ id: 2, type: 'tool_call', parentStepId: 1 }),
      makeStep({ id: 3, type: 'tool_call', parentStepId: 2 }),
      makeStep({ id: 4, parentStepId: 3 }),
    ];
    expect(chainDepth(steps)).toBe(3);
  });

  it('does not count parallel (sibling) tool calls as depth, and takes the deepest branch', () => {
    const steps = [
      makeStep({ id: 1, type: 'tool_call' }),
      makeStep({ id: 2, type: 'tool_call', parentStepId: 1 }),
      makeStep({ id: 3, type: 'tool_call', parentStepId: 1 }),
      makeStep({ id: 4, type: 'tool_call', parentStepId: 3 }),
      makeStep({ id: 5, type: 'tool_call' }), // a separate, shallow chain
    ];
    expect(chainDepth(steps)).toBe(3);
  });

  it('counts tool calls separated by run or log steps', () => {
    const steps = [
      makeStep({ id: 1, type: 'tool_call' }),
      makeStep({ id: 2, type: 'run', parentStepId: 1 }),
      makeStep({ id: 3, type: 'tool_call', parentStepId: 2 }),
    ];
    expect(chainDepth(steps)).toBe(2);
  });

  it('survives a missing parent and a parent cycle in the data', () => {
    expect(chainDepth([makeStep({ id: 1, type: 'tool_call', parentStepId: 99 })])).toBe(1);
    const cyclic = [makeStep({ id: 1, type: 'tool_call', parentStepId: 2 }), makeStep({ id: 2, type: 'tool_call', parentStepId: 1 })];
    expect(chainDepth(cyclic)).toBe(2);
  });
});
