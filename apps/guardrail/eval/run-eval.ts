/**
 * Guardrail evaluation: `npx tsx apps/guardrail/eval/run-eval.ts [--verbose]`.
 *
 * tsx only maps the workspace path aliases (`@gateway/*`) when it is pointed at a tsconfig,
 * and the repository root has none, so this entry re-runs itself with TSX_TSCONFIG_PATH set
 * to the guardrail's tsconfig before loading the engine.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

if (process.env['TSX_TSCONFIG_PATH'] === undefined) {
  const child = spawnSync(process.execPath, [...process.execArgv, __filename, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, TSX_TSCONFIG_PATH: join(__dirname, '..', 'tsconfig.json') },
  });
  process.exit(child.status ?? 1);
} else {
  void import('./eval.runner').then(({ runEvaluation }) => {
    process.exitCode = runEvaluation(process.argv.includes('--verbose')) ? 0 : 1;
  });
}
