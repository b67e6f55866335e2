import type { StepRecord, TraceSummary } from '../summary';

export type Grade = 'A' | 'B' | 'C' | 'D' | 'F';

/** A registry entry as grading needs it; prices in USD per 1,000 tokens. */
export interface GradeModel {
  identifier: string;
  /** Tier this model is configured for in the project's routing settings, if any. */
  tier: string | null;
  inputCostPer1k: number;
  outputCostPer1k: number;
}

export interface Grades {
  overall: Grade;
  /** Over-spending on too capable a model. */
  waste: Grade;
  /** Slow steps. */
  latency: Grade;
}

export interface GradeTraceInput {
  steps: StepRecord[];
  summary: TraceSummary;
  registry: GradeModel[];
  routingTiers: Partial<Record<'simple' | 'complex' | 'secure', string>>;
  /** A model call or tool execution slower than this (ms) is a slow step; default 2,000. */
  slowStepMs?: number;
}

export interface GradeTraceResult {
  grades: Grades;
  /** Same letter as grades.overall (the spec exposes both). */
  optimization_grade: Grade;
  /** One sentence per issue found, in the order the rules examined them. */
  findings: string[];
}
