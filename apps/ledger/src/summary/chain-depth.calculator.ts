import type { StepRecord } from './summary.types';

/**
 * Nested tool-call cycles: the largest number of `tool_call` steps on one parent chain
 * (parentStepId links). Each round of the tool loop (model asks for tools → caller sends
 * tool_results with parent_step_id) adds one tool_call step under the previous one, so the
 * count along a chain is the number of cycles. Sibling tool_call steps (parallel calls of the
 * same round) share a parent and do not add depth. 0 when no tool was called.
 *
 * Robust to bad links: a parent that is not in the trace ends the chain, and a parent cycle in
 * the data is cut at the first repeated step instead of recursing forever.
 */
export function chainDepth(steps: StepRecord[]): number {
  const byId = new Map(steps.map((step) => [step.id, step]));
  const memo = new Map<number, number>();

  const depthOf = (start: StepRecord): number => {
    // Walk up iteratively, then fill the memo on the way back down.
    const chain: StepRecord[] = [];
    const onChain = new Set<number>();
    let base = 0;
    let current: StepRecord | undefined = start;
    while (current && !onChain.has(current.id)) {
      const known = memo.get(current.id);
      if (known !== undefined) {
        base = known;
        break;
      }
      chain.push(current);
      onChain.add(current.id);
      current = current.parentStepId === null ? undefined : byId.get(current.parentStepId);
    }
    for (let index = chain.length - 1; index >= 0; index -= 1) {
      const step = chain[index]!;
      base += step.type === 'tool_call' ? 1 : 0;
      memo.set(step.id, base);
    }
    return memo.get(start.id) ?? base;
  };

  let deepest = 0;
  for (const step of steps) deepest = Math.max(deepest, depthOf(step));
  return deepest;
}
