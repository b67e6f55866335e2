import type { FoldedText } from '../text/matching-fold';
import { toOriginalSpan, viewIndexAtOriginal, type TextView } from '../text/text-view';
import { detectAdversarialSuffix } from './adversarial-suffix.detector';
import { PHRASE_RULES, TEMPLATE_RULES, type InjectionFamily, type PhraseRule } from './injection-rules';
import { fencePositions, mentionFactor, type MentionScope } from './mention-context';
import { compilePhrase, type CompiledPhrase } from './phrase-pattern';

/** An injection match in ORIGINAL input offsets. */
export interface InjectionMatch {
  ruleId: string;
  family: InjectionFamily;
  start: number;
  end: number;
  confidence: number;
  /** True when matched only after joining spaced-out letters. */
  compact?: boolean;
}

export interface InjectionScan {
  original: string;
  clean: TextView;
  folded: FoldedText;
  /** Adversarial suffixes are a property of prompts, not of model output. */
  includeSuffixes: boolean;
}

const COMPILED: ReadonlyArray<{ rule: PhraseRule; compiled: CompiledPhrase }> = PHRASE_RULES.map((rule) => ({
  rule,
  compiled: compilePhrase(rule.slots),
}));

/** Spaced-out letters are re-matched without spaces up to this many letters per check. */
const MAX_COMPACT_LETTERS = 8_192;
/** Matches kept per rule and view; more add no risk (the score saturates) but cost time. */
const MAX_MATCHES_PER_RULE = 16;

export function detectInjection(scan: InjectionScan): InjectionMatch[] {
  const matches: InjectionMatch[] = [];
  const foldedText = scan.folded.view.text;
  const scope: MentionScope = { original: scan.original, folded: foldedText, fences: fencePositions(scan.original) };

  for (const { rule, compiled } of COMPILED) {
    if (!compiled.triggers.some((trigger) => foldedText.includes(trigger))) continue;
    let count = 0;
    for (const match of foldedText.matchAll(compiled.spaced)) {
      const foldStart = match.index;
      const foldEnd = foldStart + match[0].length;
      const span = toOriginalSpan(scan.folded.view, foldStart, foldEnd);
      const factor = mentionFactor(scope, span.start, span.end, foldStart, foldEnd);
      matches.push({ ruleId: rule.id, family: rule.family, ...span, confidence: rule.confidence * factor });
      if (++count >= MAX_MATCHES_PER_RULE) break;
    }
  }

  matchSpacedRegions(scan, matches);

  const cleanText = scan.clean.text;
  for (const template of TEMPLATE_RULES) {
    let count = 0;
    for (const match of cleanText.matchAll(template.pattern)) {
      const leading = match[0].length - match[0].trimStart().length;
      const span = toOriginalSpan(scan.clean, match.index + leading, match.index + match[0].length);
      const foldAt = viewIndexAtOriginal(scan.folded.view, span.start);
      const foldEnd = viewIndexAtOriginal(scan.folded.view, span.end);
      const factor = mentionFactor(scope, span.start, span.end, foldAt, foldEnd);
      matches.push({ ruleId: template.id, family: template.family, ...span, confidence: template.confidence * factor });
      if (++count >= MAX_MATCHES_PER_RULE) break;
    }
  }

  if (scan.includeSuffixes) {
    for (const suffix of detectAdversarialSuffix(cleanText)) {
      const span = toOriginalSpan(scan.clean, suffix.start, suffix.end);
      matches.push({ ruleId: 'injection.adversarial_suffix.token-soup', family: 'adversarial_suffix', ...span, confidence: suffix.confidence });
    }
  }
  return dedupe(matches);
}

function matchSpacedRegions(scan: InjectionScan, matches: InjectionMatch[]): void {
  const view = scan.folded.view;
  let budget = MAX_COMPACT_LETTERS;
  for (const region of scan.folded.spacedRegions) {
    if (budget <= 0) break;
    const positions: number[] = [];
    let compact = '';
    for (let i = region.start; i < region.end && positions.length < budget; i++) {
      const char = view.text[i]!;
      if (char === ' ') continue;
      compact += char;
      positions.push(i);
    }
    budget -= positions.length;
    if (compact.length < 8) continue;
    for (const { rule, compiled } of COMPILED) {
      if (!compiled.triggers.some((trigger) => compact.includes(trigger.replace(/ /g, '')))) continue;
      for (const match of compact.matchAll(compiled.compact)) {
        if (match[0].length === 0) continue;
        const span = toOriginalSpan(view, positions[match.index]!, positions[match.index + match[0].length - 1]! + 1);
        matches.push({ ruleId: rule.id, family: rule.family, ...span, confidence: rule.confidence, compact: true });
      }
    }
  }
}

function dedupe(matches: InjectionMatch[]): InjectionMatch[] {
  const best = new Map<string, InjectionMatch>();
  for (const match of matches) {
    const key = `${match.ruleId}:${match.start}:${match.end}`;
    const existing = best.get(key);
    if (existing === undefined || existing.confidence < match.confidence) best.set(key, match);
  }
  return [...best.values()].sort((a, b) => a.start - b.start);
}
