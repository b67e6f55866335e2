import { chainDepth } from './chain-depth.calculator';
import type { StepRecord } from './summary.types';

/** Above this the trace is flagged as a likely stall or loop (spec: Limits, Stall flag). */
export const STALL_FLAG_THRESHOLD = 0.7;

/** Weights of the three signals; they sum to 1 so the result stays within 0..1. */
export const STALL_WEIGHTS = { repetition: 0.6, depth: 0.15, noProgress: 0.25 } as const;

/** Number of repeats at which the repetition signal saturates. */
const SATURATING_REPEATS = 3;

/** Chain depth at which the depth signal saturates: the runaway-chain limit of the grades (> 5). */
const SATURATING_DEPTH = 6;

/** Steps that represent the agent acting: model calls, tool rounds, and blocked attempts. */
const ACTING_TYPES: ReadonlySet<StepRecord['type']> = new Set(['run', 'tool_call', 'blocked']);

/**
 * stall_probability = 0.6 × R + 0.15 × D + 0.25 × T, rounded to 4 decimals, where over the
 * acting steps (run, tool_call, blocked) in time order:
 * - R, repetition: min(1, repeats / 3), a repeat being a step whose (type, tool, input, output)
 *   exactly matches an earlier one. An agent asking the same thing and getting the same answer
 *   is not moving; retries that got a different answer are not repeats. R counts repeats rather
 *   than a share so a long trace cannot dilute a loop, and saturates at three so one repeated
 *   question (deterministic models answer it identically) is not yet a loop.
 * - D, depth: (chain_depth − 1) / 5, clamped to 0..1. One tool round is normal; six is the
 *   runaway limit.
 * - T, time without progress: share of the acting span (first step start → last step end)
 *   elapsed after the last step that produced something new.
 * Calibration: two identical calls never pass the 0.7 flag (at most 0.6); four identical calls
 * back to back score 0.6 + 0.25 × 0.75 ≈ 0.79 and are flagged; three are flagged only inside
 * a deep tool chain. A varied trace scores 0.15 × D at most.
 */
export function stallProbability(steps: StepRecord[]): number {
  const acting = steps
    .filter((step) => ACTING_TYPES.has(step.type))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id);
  const depth = Math.min(1, Math.max(0, (chainDepth(steps) - 1) / (SATURATING_DEPTH - 1)));

  let repetition = 0;
  let noProgress = 0;
  if (acting.length >= 2) {
    const seen = new Set<string>();
    let repeats = 0;
    let lastProgressAt = acting[0]!.completedAt.getTime();
    for (const step of acting) {
      const signature = stableStringify([step.type, step.toolName, step.input, step.output]);
      if (seen.has(signature)) {
        repeats += 1;
      } else {
        seen.add(signature);
        lastProgressAt = Math.max(lastProgressAt, step.completedAt.getTime());
      }
    }
    repetition = Math.min(1, repeats / SATURATING_REPEATS);
    const start = acting[0]!.createdAt.getTime();
    const end = acting.reduce((latest, step) => Math.max(latest, step.completedAt.getTime()), start);
    noProgress = end > start ? Math.min(1, Math.max(0, (end - lastProgressAt) / (end - start))) : 0;
  }

  const probability = STALL_WEIGHTS.repetition * repetition + STALL_WEIGHTS.depth * depth + STALL_WEIGHTS.noProgress * noProgress;
  return Math.round(Math.min(1, Math.max(0, probability)) * 10_000) / 10_000;
}

export function isStallFlagged(probability: number): boolean {
  return probability > STALL_FLAG_THRESHOLD;
}

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` outputs count as the same answer. */
export function stableStringify(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object' || value instanceof Date) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, entry]) => entry !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${stableStringify(entry)}`).join(',')}}`;
}
