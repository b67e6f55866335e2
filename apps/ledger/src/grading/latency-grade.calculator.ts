import type { StepRecord } from '../summary';
import { DEFAULT_SLOW_STEP_MS, SEVERELY_SLOW_FACTOR, SLOW_CHAIN_SHARE } from '@gateway/proto';
import type { Grade } from './grading.types';

export interface LatencyAssessment {
  grade: Grade;
  timedUnits: number;
  slowUnits: number;
  /** Units above SEVERELY_SLOW_FACTOR × the threshold. */
  severelySlowUnits: number;
  findings: string[];
}

/**
 * Latency dimension; rules in GRADING_RULES. Timed units are model calls (run and tool_call
 * latency, ms) and reported tool executions (tool latency, ms): a slow tool makes the chain slow
 * as much as a slow model does. Check, log and blocked steps are the gateway's own or the
 * caller's events, not choices the grade should judge.
 */
export function assessLatency(steps: StepRecord[], slowStepMs: number = DEFAULT_SLOW_STEP_MS): LatencyAssessment {
  const findings: string[] = [];
  let timedUnits = 0;
  let slowUnits = 0;
  let severelySlowUnits = 0;
  const severeMs = slowStepMs * SEVERELY_SLOW_FACTOR;
  const time = (what: string, ms: number) => {
    if (!Number.isFinite(ms)) return; // an unmeasured step is not evidence either way
    timedUnits += 1;
    if (ms <= slowStepMs) return;
    slowUnits += 1;
    if (ms > severeMs) severelySlowUnits += 1;
    findings.push(`${what} took ${Math.round(ms)} ms > ${slowStepMs} ms`);
  };
  for (const step of steps) {
    if (step.type !== 'run' && step.type !== 'tool_call') continue;
    time(`step ${step.id}: ${step.model ?? 'model call'}`, step.latencyMs);
    if (step.type === 'tool_call' && step.toolLatencyMs !== null) {
      time(`step ${step.id}: tool ${step.toolName ?? 'execution'}`, step.toolLatencyMs);
    }
  }

  let grade: Grade;
  if (severelySlowUnits >= 2) grade = 'F';
  else if (slowUnits >= 2 && slowUnits / timedUnits >= SLOW_CHAIN_SHARE) grade = 'D';
  else if (slowUnits >= 2) grade = 'C';
  else if (slowUnits === 1) grade = 'B';
  else grade = 'A';
  return { grade, timedUnits, slowUnits, severelySlowUnits, findings };
}
