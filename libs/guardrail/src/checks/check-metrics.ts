import { Counter, type Registry } from 'prom-client';

/** What the decision metric needs of a check's outcome (a CheckResult or its CheckResponse). */
export interface CheckDecision {
  allowed: boolean;
  reason?: string;
}

/** Counts one check: `guardrail_checks_total{direction, outcome}`. */
export type CheckObserver = (direction: string, decision: CheckDecision) => void;

/**
 * The guardrail decision metric, registered on a service's registry: the guardrail service counts
 * the checks it serves, edge the ones it runs in-process on the execution path. Outcome:
 * `allowed`, or the reason the check was not.
 */
export function guardrailDecisionCounter(registry: Registry): CheckObserver {
  const checks = new Counter({
    name: 'guardrail_checks_total',
    help: 'Safety checks by direction and outcome (allowed, or the reason a check was not)',
    labelNames: ['direction', 'outcome'] as const,
    registers: [registry],
  });
  return (direction, decision) => checks.inc({ direction: direction || 'input', outcome: decision.allowed ? 'allowed' : decision.reason || 'blocked' });
}
