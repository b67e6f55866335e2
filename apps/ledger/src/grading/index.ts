// Public surface of the ledger's grading: gradeTrace runs when a trace is completed. The rules'
// numbers and their text (GRADING_RULES, also in the OpenAPI description) are in @gateway/proto.
export type { Grade, GradeModel, GradeTraceInput, GradeTraceResult, Grades } from './grading.types';
export { gradeTrace } from './grade-trace.usecase';
export { GRADE_ORDER } from './grade-scale.util';
export { assessWaste } from './waste-grade.calculator';
export type { WasteAssessment } from './waste-grade.calculator';
export { assessLatency } from './latency-grade.calculator';
export type { LatencyAssessment } from './latency-grade.calculator';
export { averageUserRating, parseUserRating } from './user-rating.parser';
export { EMPTY_GRADING_POLICY, gradingPolicyFrom } from './grading-policy';
export type { GradingPolicy, GradingPolicySource, RegistryEntry } from './grading-policy';
export { ControlPlaneGradingPolicySource } from './control-plane-grading-policy.source';
