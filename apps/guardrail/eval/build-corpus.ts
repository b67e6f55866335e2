/**
 * Regenerates the evaluation corpus (eval/corpus/*.jsonl) deterministically from the sources
 * in eval/sources. Run: TSX_TSCONFIG_PATH=apps/guardrail/tsconfig.json npx tsx apps/guardrail/eval/build-corpus.ts
 * The JSONL files are committed; this script documents how they were made.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seededRandom } from '@gateway/guardrail/testing';
import type { EvalCase } from './eval.types';
import { buildBenignCases, buildPolicyCases } from './sources/benign-cases.source';
import { buildHoldoutCases } from './sources/holdout-cases.source';
import { buildInjectionCases } from './sources/injection-cases.source';
import { buildPiiCases } from './sources/pii-cases.source';
import { buildSecretCases } from './sources/secret-cases.source';

const CORPUS_DIR = join(__dirname, 'corpus');

function write(name: string, cases: readonly EvalCase[]): void {
  writeFileSync(join(CORPUS_DIR, name), cases.map((entry) => JSON.stringify(entry)).join('\n') + '\n');
  process.stdout.write(`${name}: ${cases.length} cases\n`);
}

write('pii.jsonl', buildPiiCases(seededRandom(20_240_601)));
write('injection.jsonl', buildInjectionCases(seededRandom(20_240_602)));
write('secrets.jsonl', buildSecretCases(seededRandom(20_240_603)));
write('benign.jsonl', buildBenignCases());
write('policy.jsonl', buildPolicyCases());
write('holdout.jsonl', buildHoldoutCases());
