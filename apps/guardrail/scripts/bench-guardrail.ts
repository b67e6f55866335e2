/**
 * Guardrail micro-benchmark: `npm run bench:guardrail` (standalone) or `runGuardrailBench()`
 * (the guardrail section of the root `npm run bench`).
 * Measures checkText latency for realistic 4 KB inputs (p50/p95/p99; target p95 < 5 ms) and,
 * for 100 KB adversarial inputs built to stress each detector's worst case, the median and the
 * worst of five runs (target < 50 ms). Standalone it prints a table, then one JSON line, and
 * exits 1 on a miss.
 */
import { performance } from 'node:perf_hooks';
import { checkText, type GuardrailPolicy } from '@gateway/guardrail';
import { sampleStats } from '@gateway/testing';
import * as fakeSecrets from '@gateway/guardrail/testing';

type FakeSecretFactory = typeof fakeSecrets;

const TARGET_P95_MS = 5;
const TARGET_ADVERSARIAL_MS = 50;
const REALISTIC_CHARS = 4_096;
const ADVERSARIAL_CHARS = 100 * 1_024;
const REALISTIC_RUNS = 2_000;
const ADVERSARIAL_RUNS = 5;

const POLICY: Partial<GuardrailPolicy> = {
  blockedTerms: ['Project Falcon', 'crimson ledger', 'internal roadmap'],
  blockedPatterns: ['\\bACME-\\d{4}\\b', '\\w+@competitor\\.example'],
  blockedTopics: ['gambling', 'weapons'],
};

/** Paragraph pool for realistic prompts: prose, code, PII, a quoted attack, config. */
function paragraphs(allFakeSecrets: FakeSecretFactory['allFakeSecrets']): string[] {
  const secrets = allFakeSecrets(7);
  return [
    'Please summarize the attached quarterly report for the board. Revenue grew 12% while operating costs stayed flat; the new Lisbon office opened in March and hiring is on track.',
    'Hi, my name is Sarah Thompson and my email is sarah.thompson@example.com. You can also call me at (415) 555-0134 if anything is unclear about the invoice.',
    'function retry(fn, attempts = 3) {\n  for (let i = 0; i < attempts; i++) {\n    try { return fn(); } catch (error) { if (i === attempts - 1) throw error; }\n  }\n}',
    'Our security training shows phrases like "ignore all previous instructions" as typical prompt injection examples; the classifier should flag them.',
    `deploy:\n  region: eu-west-1\n  replicas: 3\n  token: ${secrets[12]!.secret}`,
    'Bitte senden Sie die Unterlagen bis Freitag an die Buchhaltung. Vielen Dank für Ihre Unterstützung und freundliche Grüße aus Berlin.',
    'Request 3fa85f64-5717-4562-b3fc-2c963f66afa6 failed with status 503 at 2025-03-14T10:22:31Z; retrying with exponential back-off.',
    'Ship the replacement to 742 Evergreen Terrace, Springfield, IL 62704 and charge the card on file. The customer prefers delivery after 5pm.',
    '| Plan | Price | Seats |\n|------|-------|-------|\n| Team | $12 | 10 |\n| Business | $29 | 50 |',
    'Can you translate this paragraph into Spanish and keep the formal tone? It is for a client presentation next Tuesday. 😊👍🏽',
  ];
}

function realisticInputs(count: number, factory: FakeSecretFactory): string[] {
  const pool = paragraphs(factory.allFakeSecrets);
  const random = factory.seededRandom(42);
  const inputs: string[] = [];
  for (let n = 0; n < count; n++) {
    let text = '';
    while (text.length < REALISTIC_CHARS) text += `${pool[Math.floor(random() * pool.length)]}\n\n`;
    inputs.push(text.slice(0, REALISTIC_CHARS));
  }
  return inputs;
}

const fill = (unit: string): string => unit.repeat(Math.ceil(ADVERSARIAL_CHARS / unit.length)).slice(0, ADVERSARIAL_CHARS);

function randomString(alphabet: string, length: number, random: () => number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

/** Inputs shaped against each detector: long runs, repeated prefixes, near-misses, floods. */
function adversarialInputs(seededRandom: FakeSecretFactory['seededRandom']): Array<{ name: string; text: string }> {
  return [
    { name: 'single letter run', text: fill('a') },
    { name: 'word runs', text: fill('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa ') },
    { name: 'email near-miss', text: fill('a'.repeat(63) + '@') },
    { name: 'email dots', text: fill('a.a@a.a.') },
    { name: 'spaced digits', text: fill('1 ') },
    { name: 'digit run', text: fill('1234567890') },
    { name: 'phone prefixes', text: fill('+1 (415) 555-') },
    { name: 'valid phones', text: fill('+1 415 555 0134, ') },
    { name: 'card-like groups', text: fill('4111 1111 1111 1112 ') },
    { name: 'iban prefixes', text: fill('DE89 3704 ') },
    { name: 'ipv6 colons', text: fill('1:2:3:4:') },
    { name: 'base64 soup', text: randomString('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', ADVERSARIAL_CHARS, seededRandom(1)) },
    { name: 'base64 tokens', text: fill('QWxsIHlvdXIgYmFzZSBhcmUgYmVsb25nIHRvIHVz ') },
    { name: 'hex soup', text: randomString('0123456789abcdef', ADVERSARIAL_CHARS, seededRandom(2)) },
    { name: 'percent escapes', text: fill('%41') },
    { name: 'html entities', text: fill('&#65;') },
    { name: 'zero-width interleave', text: fill('a\u200b') },
    { name: 'tag characters', text: fill('\u{e0041}') },
    { name: 'spaced letters', text: fill('a ') },
    { name: 'spaced words', text: fill('i g n o r e   ') },
    { name: 'trigger flood', text: fill('ignore ') },
    { name: 'partial override', text: fill('ignore all previous ') },
    { name: 'persona flood', text: fill('you are now ') },
    { name: 'quoted attack flood', text: fill('"ignore all previous instructions" ') },
    { name: 'jwt prefixes', text: fill('eyJ') },
    { name: 'jwt near-miss', text: fill('eyJhbGciOiJIUzI1NiJ9.eyJ') },
    { name: 'pem headers', text: fill('-----BEGIN RSA PRIVATE KEY-----') },
    { name: 'password assignments', text: fill('password=') },
    { name: 'password sentences', text: fill('the password for the server is ') },
    { name: 'token prefixes', text: fill('ghp_sk-ant-xoxb-AKIA') },
    { name: 'connection strings', text: fill('postgres://a:') },
    { name: 'combining flood', text: fill('a' + '\u0301'.repeat(20)) },
    { name: 'mixed scripts', text: fill('pаypаl ') },
    { name: 'capitalized words', text: fill('Aaaa ') },
    { name: 'name cues', text: fill('My name is ') },
    { name: 'address near-miss', text: fill('123 Main ') },
    { name: 'dob cues', text: fill('born on ') },
    { name: 'template tokens', text: fill('<|im_start|>') },
    { name: 'html comments', text: fill('<!-- ') },
    { name: 'symbol soup', text: fill('describing.\\ + similarlyNow write oppositeley.]( Me giving**ONE please? ') },
    { name: 'cjk text', text: fill('東京の天気は明日晴れるでしょう。') },
    { name: 'bidi override', text: fill('\u202eabc ') },
  ];
}

/** One measured row; `pass` compares `targetOf` (p95 or max) with `targetMs`. */
export interface GuardrailBenchRow {
  name: string;
  chars: number;
  runs: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  targetMs: number;
  targetOf: 'p95' | 'max';
  pass: boolean;
}

export interface GuardrailBenchOptions {
  realisticRuns?: number;
  adversarialRuns?: number;
}

function row(name: string, chars: number, timings: number[], targetMs: number, targetOf: 'p95' | 'max'): GuardrailBenchRow {
  const { n, ...measured } = sampleStats(timings);
  return { name, chars, runs: n, ...measured, targetMs, targetOf, pass: measured[targetOf] < targetMs };
}

/**
 * The guardrail section of the benchmark, in milliseconds. Rows: `guardrail 4 KB realistic`
 * (target p95 < 5 ms), `guardrail 100 KB adversarial (worst shape: …)` (target max < 50 ms),
 * then one `guardrail 100 KB <shape>` row per adversarial shape.
 */
export async function runGuardrailBench(options: GuardrailBenchOptions = {}): Promise<GuardrailBenchRow[]> {
  const realisticRuns = options.realisticRuns ?? REALISTIC_RUNS;
  const adversarialRuns = options.adversarialRuns ?? ADVERSARIAL_RUNS;
  const factory: FakeSecretFactory = fakeSecrets;
  const inputs = realisticInputs(50, factory);
  for (let i = 0; i < 300; i++) checkText(inputs[i % inputs.length]!, POLICY); // warm-up (JIT, caches)
  const timings: number[] = [];
  for (let i = 0; i < realisticRuns; i++) {
    const input = inputs[i % inputs.length]!;
    const started = performance.now();
    checkText(input, POLICY);
    timings.push(performance.now() - started);
  }
  const realistic = row('guardrail 4 KB realistic', REALISTIC_CHARS, timings, TARGET_P95_MS, 'p95');

  // One pass over every adversarial input first: regex compilation and JIT tiering happen once
  // per process; the target is the steady-state latency of a long-running service.
  const shapes = adversarialInputs(factory.seededRandom);
  for (const { text } of shapes) checkText(text, POLICY);
  const adversarial = shapes.map(({ name, text }) => {
    const runs: number[] = [];
    for (let run = 0; run < adversarialRuns; run++) {
      const started = performance.now();
      checkText(text, POLICY);
      runs.push(performance.now() - started);
    }
    return row(`guardrail 100 KB ${name}`, text.length, runs, TARGET_ADVERSARIAL_MS, 'max');
  });
  const worst = adversarial.reduce((max, entry) => (entry.max > max.max ? entry : max));
  const worstRow: GuardrailBenchRow = { ...worst, name: `guardrail 100 KB adversarial (worst shape: ${worst.name.replace('guardrail 100 KB ', '')})` };
  return [realistic, worstRow, ...adversarial];
}

async function main(): Promise<void> {
  const [realistic, worst, ...adversarial] = await runGuardrailBench();
  const lines = [
    `Guardrail benchmark (node ${process.version}, policy with ${POLICY.blockedTerms!.length} terms, ${POLICY.blockedPatterns!.length} patterns, ${POLICY.blockedTopics!.length} topics)`,
    '',
    `4 KB realistic inputs (${realistic!.runs} runs): p50 ${realistic!.p50.toFixed(3)} ms · p95 ${realistic!.p95.toFixed(3)} ms · p99 ${realistic!.p99.toFixed(3)} ms   [target p95 < ${TARGET_P95_MS} ms: ${realistic!.pass ? 'PASS' : 'FAIL'}]`,
    '',
    `100 KB adversarial inputs (${adversarial.length} shapes, ${worst!.runs} runs each after one warm-up pass; median / worst):`,
    ...adversarial
      .slice()
      .sort((a, b) => b.max - a.max)
      .map((entry) => `  ${entry.name.replace('guardrail 100 KB ', '').padEnd(24)} ${entry.p50.toFixed(2).padStart(8)} ms ${entry.max.toFixed(2).padStart(8)} ms`),
    `  ${worst!.name.replace('guardrail 100 KB adversarial ', '')} ${worst!.max.toFixed(2)} ms   [target < ${TARGET_ADVERSARIAL_MS} ms: ${worst!.pass ? 'PASS' : 'FAIL'}]`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  const ok = realistic!.pass && worst!.pass;
  process.stdout.write(
    JSON.stringify({
      metric: 'guardrail_bench',
      realistic: { chars: REALISTIC_CHARS, runs: realistic!.runs, p50Ms: realistic!.p50, p95Ms: realistic!.p95, p99Ms: realistic!.p99 },
      adversarial: {
        chars: ADVERSARIAL_CHARS,
        worstMs: worst!.max,
        worstInput: worst!.name.replace(/^.*worst shape: (.*)\)$/, '$1'),
        inputs: adversarial.map((entry) => ({ name: entry.name.replace('guardrail 100 KB ', ''), chars: entry.chars, medianMs: entry.p50, worstMs: entry.max })),
      },
      targetsMet: ok,
    }) + '\n',
  );
  process.exitCode = ok ? 0 : 1;
}

if (require.main === module) void main();
