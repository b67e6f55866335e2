import type { StepRecord } from '../summary';
import { makeStep } from '../summary/step-record.fixture';
import type { GradeModel, GradeTraceInput } from './grading.types';

/** Test-only registry: a cheap simple model, a pricey complex one, a free private one. */
export const REGISTRY: GradeModel[] = [
  { identifier: 'mini', tier: 'simple', inputCostPer1k: 0.00015, outputCostPer1k: 0.0006 },
  { identifier: 'opus', tier: 'complex', inputCostPer1k: 0.015, outputCostPer1k: 0.075 },
  { identifier: 'vault', tier: 'secure', inputCostPer1k: 0, outputCostPer1k: 0 },
  { identifier: 'mid', tier: null, inputCostPer1k: 0.003, outputCostPer1k: 0.015 },
];

export const ROUTING_TIERS: GradeTraceInput['routingTiers'] = { simple: 'mini', complex: 'opus', secure: 'vault' };

/** A simple-tier step that used the complex model: wasteful. */
export function wastefulStep(id: number, overrides: Partial<StepRecord> = {}): StepRecord {
  return makeStep({ id, model: 'opus', tier: 'simple', costUsd: 0.01, ...overrides });
}

/** A simple-tier step on the simple model: fine. */
export function fineStep(id: number, overrides: Partial<StepRecord> = {}): StepRecord {
  return makeStep({ id, model: 'mini', tier: 'simple', costUsd: 0.0001, ...overrides });
}

/** A complex-tier step on the complex model: fine, and expensive. */
export function complexStep(id: number, overrides: Partial<StepRecord> = {}): StepRecord {
  return makeStep({ id, model: 'opus', tier: 'complex', costUsd: 0.05, ...overrides });
}

export function slowStep(id: number, latencyMs = 3_000): StepRecord {
  return fineStep(id, { latencyMs });
}
