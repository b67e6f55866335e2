import { DomainError } from '@gateway/errors';
import { CHECK_DIRECTIONS, type CheckDirection, type CheckOptions, type CheckResult, type Finding, type GuardrailPolicy, type PiiEntity } from './detection.types';
import { detectInjection } from './injection/injection.detector';
import { fencePositions } from './injection/mention-context.analyzer';
import { detectPii } from './pii/pii.detector';
import { PHONE_VALIDATION_BUDGET } from './pii/phone.recognizer';
import { compilePolicy, detectPolicyViolations, type CompiledPolicy } from './policy/policy.detector';
import { assessRisk } from './scoring/risk-score.calculator';
import { detectSecrets } from './secrets/secret.detector';
import { decodeInput } from './text/encoded-layer.decoder';
import { foldForMatching, type FoldedText } from './text/matching-fold.normalizer';
import { coalesceSignals, type ObfuscationSignal } from './text/obfuscation-signal.model';
import { cleanUnicode } from './text/unicode.normalizer';
import type { Span, TextView } from './text/text-view.model';

/**
 * Input size cap in UTF-16 code units (128 Ki). The latency budget (p95 < 5 ms at 4 KB,
 * < 50 ms for 100 KB of adversarial text) is measured up to this size; larger inputs are
 * refused rather than scanned partially, so nothing can hide past a scan limit.
 */
export const MAX_INPUT_CHARS = 131_072;

/** Findings below this confidence add risk but do not set the category flag (e.g. quoted attacks). */
const FLAG_CONFIDENCE = 0.5;

/** Confidence of obfuscation found while scanning (the normalizers rate the signals they raise). */
const FOLDING_OBFUSCATION = 0.9;
const ENCODING_OBFUSCATION = 1;

/** Which detectors run on a view; see checkText for why they differ per view. */
interface Scan {
  view: TextView;
  folded: FoldedText | null;
  pii: boolean;
  secrets: boolean;
  injection: boolean;
  policy: boolean;
  /** Findings here were hidden in base64/hex payloads. */
  payload: boolean;
}

const ESCAPED = /%[0-9a-f]{2}|&#?[a-z0-9]{1,8};|\\[xu][0-9a-f{]/i;

/** Refuses what checkText would refuse for its size, before any other work is spent on it. */
export function assertCheckableInput(input: unknown): asserts input is string {
  if (typeof input !== 'string') throw new DomainError('VALIDATION_FAILED', 'input must be a string');
  if (input.length > MAX_INPUT_CHARS) {
    throw new DomainError(
      'PAYLOAD_TOO_LARGE',
      `Input of ${input.length} characters exceeds the guardrail limit of ${MAX_INPUT_CHARS} characters (UTF-16 code units)`,
    );
  }
}

/** `input` when absent or empty (proto default); VALIDATION_FAILED for anything but input/output. */
export function parseDirection(direction: string | undefined): CheckDirection {
  if (direction === undefined || direction === '') return 'input';
  const known = CHECK_DIRECTIONS.find((candidate) => candidate === direction);
  if (known === undefined) throw new DomainError('VALIDATION_FAILED', `direction must be one of ${CHECK_DIRECTIONS.join(', ')}`, { errors: ['direction is invalid'] });
  return known;
}

/** Validates a policy (limits, bounded regexes) without running a check; throws VALIDATION_FAILED. */
export function validatePolicy(policy: Partial<GuardrailPolicy> | undefined): void {
  compilePolicy(policy);
}

/**
 * One safety check. `allowed` is `riskScore < policy.riskThreshold` (default 0.7; the score is
 * documented in scoring/risk-score.calculator.ts); when not allowed, `reason` names the
 * dominant category (pii_detected, injection_attempt, secret_leaked, policy_violation). All
 * offsets are UTF-16 offsets into `input`. Throws PAYLOAD_TOO_LARGE over MAX_INPUT_CHARS and
 * VALIDATION_FAILED for an invalid policy or direction.
 */
export function checkText(input: string, policy?: Partial<GuardrailPolicy>, options: CheckOptions = {}): CheckResult {
  assertCheckableInput(input);
  const direction = parseDirection(options.direction);
  const compiledPolicy = compilePolicy(policy);
  // On model output injection is reported, not scored (see CheckOptions.direction).
  const scoreInjection = direction === 'input';

  const cleaned = cleanUnicode(input);
  const decoded = decodeInput(cleaned.view);
  // With escapes present, the unescaped view is a superset of the plain one (same text with
  // escapes decoded, exact offsets), so PII, injection and policy run there only. Secrets run on
  // both: an encoded character may belong to the secret ("p%40ss" in a connection string).
  const primary = decoded.unescaped ?? cleaned.view;
  const primaryFolded = foldForMatching(primary);
  const scans: Scan[] = [{ view: primary, folded: primaryFolded, pii: true, secrets: true, injection: true, policy: true, payload: false }];
  if (decoded.unescaped !== null) {
    scans.push({ view: cleaned.view, folded: null, pii: false, secrets: true, injection: false, policy: false, payload: false });
  }
  if (decoded.payloads !== null) {
    // PII is not searched in payloads: their offsets can only name the whole encoded run (a
    // JWT would be reported as a "person"), and PII hidden that way is rare.
    scans.push({ view: decoded.payloads, folded: foldForMatching(decoded.payloads), pii: false, secrets: true, injection: true, policy: true, payload: true });
  }

  const findings: Finding[] = [];
  const context: ScanContext = {
    input,
    policy: compiledPolicy,
    includeSuffixes: direction === 'input',
    scoreInjection,
    phoneBudget: { validations: PHONE_VALIDATION_BUDGET },
    fences: fencePositions(input),
  };
  const primaryFindings = runScan(scans[0]!, context);
  findings.push(...primaryFindings);
  for (const scan of scans.slice(1)) findings.push(...runScan(scan, context));

  if (decoded.unescaped !== null) {
    // A finding whose text contains escapes was hidden by them.
    for (const finding of [...findings]) {
      if (finding.category === 'pii' || !scored(finding, scoreInjection) || finding.confidence < FLAG_CONFIDENCE || !ESCAPED.test(input.slice(finding.start, finding.end))) continue;
      findings.push({ category: 'obfuscation', ruleId: 'obfuscation.encoded_payload', start: finding.start, end: finding.end, confidence: ENCODING_OBFUSCATION, family: 'escapes' });
    }
  }

  const signals: ObfuscationSignal[] = [...cleaned.signals, ...primaryFolded.signals];
  // Folding happened on the primary view: only its findings can have been hidden by it (a
  // base64 run is full of "leetspeak" digits, but what it hid was found by decoding it).
  attributeFolding(primaryFolded, primaryFindings.filter((finding) => scored(finding, scoreInjection)), signals);
  const obfuscationFindings = coalesceSignals(signals).map(
    (signal): Finding => ({
      category: 'obfuscation',
      ruleId: `obfuscation.${signal.kind}`,
      start: signal.start,
      end: signal.end,
      confidence: signal.kind === 'invisible_characters' && onlySoftHyphens(input, signal) ? 0.3 : signal.confidence,
    }),
  );

  const merged = dedupeFindings([...findings, ...obfuscationFindings]);
  const risk = assessRisk(merged.filter((finding) => scored(finding, scoreInjection)));
  const allowed = risk.riskScore < compiledPolicy.riskThreshold;
  const flagged = (category: Finding['category']): boolean =>
    merged.some((finding) => finding.category === category && finding.confidence >= FLAG_CONFIDENCE);
  const piiEntities: PiiEntity[] = merged
    .filter((finding) => finding.category === 'pii')
    .map((finding) => ({ type: finding.ruleId.replace(/^pii\./, ''), start: finding.start, end: finding.end, confidence: finding.confidence }));

  const result: CheckResult = {
    allowed,
    riskScore: risk.riskScore,
    piiDetected: piiEntities.length > 0,
    injectionAttempt: flagged('injection'),
    secretLeaked: merged.some((finding) => finding.category === 'secret'),
    policyViolation: flagged('policy'),
    piiEntities,
    findings: merged,
    obfuscated: merged.some((finding) => finding.category === 'obfuscation'),
  };
  // Not allowed without any finding only happens with riskThreshold 0: the project's policy
  // refuses everything, so that policy is the reason.
  if (!allowed) result.reason = risk.reason ?? 'policy_violation';
  return result;
}

interface ScanContext {
  input: string;
  policy: CompiledPolicy;
  includeSuffixes: boolean;
  phoneBudget: { validations: number };
  fences: readonly number[];
  scoreInjection: boolean;
}

/** Whether a finding counts towards the risk score (and so may block). */
function scored(finding: Finding, scoreInjection: boolean): boolean {
  return scoreInjection || finding.category !== 'injection';
}

function runScan(scan: Scan, context: ScanContext): Finding[] {
  const findings: Finding[] = [];
  if (scan.pii) {
    for (const entity of detectPii(scan.view, context.phoneBudget)) {
      findings.push({ category: 'pii', ruleId: `pii.${entity.type}`, start: entity.start, end: entity.end, confidence: entity.confidence });
    }
  }
  if (scan.secrets) {
    for (const secret of detectSecrets(scan.view)) {
      findings.push({ category: 'secret', ruleId: secret.ruleId, start: secret.start, end: secret.end, confidence: secret.confidence });
    }
  }
  if (scan.injection && scan.folded !== null) {
    const injections = detectInjection({
      original: context.input,
      clean: scan.view,
      folded: scan.folded,
      includeSuffixes: context.includeSuffixes && !scan.payload,
      fences: context.fences,
    });
    for (const match of injections) {
      findings.push({
        category: 'injection',
        ruleId: match.ruleId,
        start: match.start,
        end: match.end,
        confidence: match.confidence,
        family: scan.payload ? 'encoded_payload' : match.family,
      });
    }
  }
  if (scan.policy && scan.folded !== null) {
    for (const violation of detectPolicyViolations(context.policy, scan.view, scan.folded.view)) {
      findings.push({ category: 'policy', ruleId: violation.ruleId, start: violation.start, end: violation.end, confidence: violation.confidence });
    }
  }
  if (scan.payload) {
    // Something was only visible after decoding: the encoding itself was used to hide it.
    const hidden = findings.filter((finding) => finding.confidence >= FLAG_CONFIDENCE && scored(finding, context.scoreInjection));
    for (const finding of hidden) {
      findings.push({ category: 'obfuscation', ruleId: 'obfuscation.encoded_payload', start: finding.start, end: finding.end, confidence: ENCODING_OBFUSCATION, family: 'base64_hex' });
    }
  }
  return findings;
}

/** Leetspeak and spaced letters are normal in places; they count as obfuscation only where they hid a finding. */
function attributeFolding(folded: FoldedText, findings: readonly Finding[], signals: ObfuscationSignal[]): void {
  const targets = findings.filter((finding) => (finding.category === 'injection' || finding.category === 'policy') && finding.confidence >= FLAG_CONFIDENCE);
  const overlaps = (span: Span): boolean => targets.some((finding) => finding.start < span.end && span.start < finding.end);
  for (const span of folded.leetSpans) if (overlaps(span)) signals.push({ kind: 'leetspeak', ...span, confidence: FOLDING_OBFUSCATION });
  for (const span of folded.spacedOriginalSpans) if (overlaps(span)) signals.push({ kind: 'spaced_letters', ...span, confidence: FOLDING_OBFUSCATION });
}

/** Soft hyphens inside words are common in text copied from web pages. */
function onlySoftHyphens(input: string, span: Span): boolean {
  return /^\u00ad+$/.test(input.slice(span.start, span.end).replace(/[^\u00ad\u200b-\u200d\u2060\ufeff]/g, ''));
}

/** One finding per rule and span (a phrase seen in several layers), keeping the highest confidence. */
function dedupeFindings(findings: readonly Finding[]): Finding[] {
  const best = new Map<string, Finding>();
  for (const finding of findings) {
    const key = `${finding.category}:${finding.ruleId}:${finding.start}:${finding.end}`;
    const existing = best.get(key);
    if (existing === undefined || existing.confidence < finding.confidence) best.set(key, finding);
  }
  const unique = [...best.values()];
  // An entity seen in several layers (plain and unescaped, say) may come back with nested
  // spans; keep the outermost. Sweep in start order, widest first: a span ending inside the
  // widest span seen so far is contained in it.
  const pii = unique
    .filter((finding) => finding.category === 'pii')
    .sort((a, b) => a.start - b.start || b.end - a.end || b.confidence - a.confidence);
  const keptPii: Finding[] = [];
  let reach = -1;
  for (const finding of pii) {
    if (finding.end <= reach) continue;
    keptPii.push(finding);
    reach = finding.end;
  }
  return [...keptPii, ...unique.filter((finding) => finding.category !== 'pii')].sort((a, b) => a.start - b.start || a.end - b.end);
}
