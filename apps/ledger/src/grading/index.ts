// Public surface of the ledger's grading: gradeTrace runs when a trace is completed, and
// GRADING_RULES is the same rules in words for the OpenAPI description.
export type { Grade, GradeModel, GradeTraceInput, GradeTraceResult, Grades } from './grading.types';
export { gradeTrace } from './grade-trace.usecase';
export {
  DEFAULT_SLOW_STEP_MS,
  GRADING_RULES,
  GREAT_RATING,
  LOOP_STALL_PROBABILITY,
  MAX_CHAIN_DEPTH,
  POOR_RATING,
} from './grading-rules.constants';
export { GRADE_ORDER } from './grade-scale.util';
export { assessWaste } from './waste-grade.calculator';
export type { WasteAssessment } from './waste-grade.calculator';
export { assessLatency } from './latency-grade.calculator';
export type { LatencyAssessment } from './latency-grade.calculator';
export { averageUserRating, parseUserRating } from './user-rating.parser';
export { EMPTY_GRADING_POLICY, gradingPolicyFrom } from './grading-policy';
export type { GradingPolicy, GradingPolicySource, RegistryEntry } from './grading-policy';
export { ControlPlaneGradingPolicySource } from './control-plane-grading-policy.source';
