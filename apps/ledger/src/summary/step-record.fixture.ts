import type { StepRecord } from './summary.types';

/** Test-only builder: a 100 ms run step started `id` seconds after T0, overridable per field. */
export const T0 = new Date('2024-05-01T12:00:00.000Z');

export function makeStep(overrides: Partial<StepRecord> & { id: number }): StepRecord {
  const createdAt = overrides.createdAt ?? new Date(T0.getTime() + overrides.id * 1_000);
  const latencyMs = overrides.latencyMs ?? 100;
  return {
    type: 'run',
    parentStepId: null,
    model: 'mini',
    costUsd: 0.001,
    toolLatencyMs: null,
    completedAt: new Date(createdAt.getTime() + latencyMs),
    input: `question ${overrides.id}`,
    output: `answer ${overrides.id}`,
    tier: 'simple',
    toolName: null,
    ...overrides,
    createdAt,
    latencyMs,
  };
}
