/**
 * Guardrail evaluation: `npm run eval:guardrail` (or `npx tsx apps/guardrail/eval/run-eval.ts [--verbose]`).
 * Exits 1 when a target is missed.
 */
import { runEvaluation } from './eval.runner';

process.exitCode = runEvaluation(process.argv.includes('--verbose')) ? 0 : 1;
