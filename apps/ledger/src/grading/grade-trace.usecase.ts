import { DomainError } from '@gateway/errors';
import { assessLatency } from './latency-grade.calculator';
import { lowerGrade, raiseGrade, worseGrade } from './grade-scale.util';
import {
  DEFAULT_SLOW_STEP_MS,
  GREAT_RATING,
  LOOP_STALL_PROBABILITY,
  MAX_CHAIN_DEPTH,
  POOR_RATING,
} from '@gateway/proto';
import type { Grade, GradeTraceInput, GradeTraceResult } from './grading.types';
import { averageUserRating } from './user-rating.parser';
import { assessWaste } from './waste-grade.calculator';

/**
 * Grades a completed trace: waste and latency per their own rules, then overall as GRADING_RULES
 * (libs/proto/src/grading-rules.ts, the text the OpenAPI description carries) states it. Every rule
 * that fires adds a finding so the grade can be explained to the caller.
 *
 * The rules, first match wins (numbers are the constants of libs/proto/src/grading-rules.ts):
 *
 * waste — a model step (run / tool_call naming a model) is wasteful when the model configured
 * for the tier it needed (router tier; an unrouted short input counts as simple; secure never
 * judged) is a different registered model whose price for the step's token mix is ≤ 90% of the
 * used model's:
 *   F  ≥ 2 model steps and every one wasteful (wrong model for every step)
 *   D  ≥ 2 wasteful and the over-spend ≥ 50% of the model cost
 *   C  ≥ 2 wasteful
 *   B  exactly 1 wasteful (slightly over-engineered)
 *   A  none
 *
 * latency — timed units are model calls (latency_ms of run / tool_call) and reported tool
 * executions (tool_latency_ms); slow means > 2,000 ms, severely slow > 10,000 ms:
 *   F  ≥ 2 severely slow
 *   D  ≥ 2 slow and ≥ 50% of the units slow (slow chain)
 *   C  ≥ 2 slow
 *   B  exactly 1 slow
 *   A  none
 *
 * overall:
 *   F  chain_depth > 5 (runaway chain), stall_probability > 0.7 (loop), or waste or latency F
 *   otherwise the worse of waste and latency, one letter lower (not past D) when both have
 *   issues; then user ratings (log steps whose output has `user_rating`, normalized to 0..1 and
 *   averaged): ≤ 0.25 lowers one letter (not past D), ≥ 0.75 raises one letter (never above the
 *   waste grade).
 */
export function gradeTrace(input: GradeTraceInput): GradeTraceResult {
  const slowStepMs = input.slowStepMs ?? DEFAULT_SLOW_STEP_MS;
  if (!Number.isFinite(slowStepMs) || slowStepMs <= 0) {
    throw new DomainError('VALIDATION_FAILED', 'slowStepMs must be a positive number of milliseconds');
  }
  const waste = assessWaste(input);
  const latency = assessLatency(input.steps, slowStepMs);
  const findings = [...waste.findings, ...latency.findings];
  const { chain_depth: depth, stall_probability: stall } = input.summary;

  let overall: Grade;
  const runaway = depth > MAX_CHAIN_DEPTH;
  const loop = stall > LOOP_STALL_PROBABILITY;
  if (runaway) findings.push(`chain depth ${depth} > ${MAX_CHAIN_DEPTH}: runaway tool chain`);
  if (loop) findings.push(`stall probability ${stall} > ${LOOP_STALL_PROBABILITY}: likely loop`);
  if (waste.grade === 'F') findings.push('wrong model for every step');
  if (latency.grade === 'F') findings.push('two or more severely slow steps');

  if (runaway || loop || waste.grade === 'F' || latency.grade === 'F') {
    overall = 'F';
  } else {
    overall = worseGrade(waste.grade, latency.grade);
    if (waste.grade !== 'A' && latency.grade !== 'A') {
      overall = lowerGrade(overall);
      findings.push('both over-spend and slow steps: overall lowered one letter');
    }
    const rating = averageUserRating(input.steps);
    if (rating && rating.average <= POOR_RATING) {
      overall = lowerGrade(overall);
      findings.push(`poor user rating (${formatRating(rating.average)} of 1 over ${rating.count} rating(s)): overall lowered one letter`);
    } else if (rating && rating.average >= GREAT_RATING) {
      const raised = raiseGrade(overall, waste.grade);
      if (raised !== overall) {
        findings.push(`great user rating (${formatRating(rating.average)} of 1): overall raised one letter`);
      } else if (overall !== 'A') {
        // Not raised means overall is already as good as the waste grade allows.
        findings.push('great user rating does not offset over-spending');
      }
      overall = raised;
    }
  }

  return { grades: { overall, waste: waste.grade, latency: latency.grade }, optimization_grade: overall, findings };
}

function formatRating(value: number): string {
  return String(Math.round(value * 100) / 100);
}
