import { foldPhrase, type FoldedText } from '../text/matching-fold.normalizer';
import { toOriginalSpan, viewIndexAtOriginal, type TextView } from '../text/text-view.model';
import { detectAdversarialSuffix } from './adversarial-suffix.detector';
import { PHRASE_RULES, TEMPLATE_RULES, type InjectionFamily, type PhraseRule } from './injection.rules';
import { mentionFactor, type MentionScope } from './mention-context.analyzer';
import { KeywordAutomaton, wordKeywords } from '../text/keyword.automaton';
import { compilePhrase, indexWords, matchPhrase, Vocabulary, type CompiledPhrase } from './phrase-pattern.matcher';

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
  /** Code-fence offsets in `original` (see fencePositions), computed once per check. */
  fences: readonly number[];
}

const VOCABULARY = new Vocabulary();
const COMPILED: ReadonlyArray<{ rule: PhraseRule; compiled: CompiledPhrase }> = PHRASE_RULES.map((rule) => ({
  rule,
  compiled: compilePhrase(rule.slots, VOCABULARY),
}));
const VOCABULARY_AUTOMATON = new KeywordAutomaton(VOCABULARY.words());

const COMPACT_TRIGGERS = COMPILED.map(({ compiled }) => compiled.firstWordTexts);

/** Spaced-out letters are re-matched without spaces up to this many letters per check. */
const MAX_COMPACT_LETTERS = 8_192;
/** Matches kept per rule and view; more add no risk (the score saturates) but cost time. */
const MAX_MATCHES_PER_RULE = 16;

export function detectInjection(scan: InjectionScan): InjectionMatch[] {
  const matches: InjectionMatch[] = [];
  const foldedText = scan.folded.view.text;
  const scope: MentionScope = { original: scan.original, folded: foldedText, fences: scan.fences };

  const index = indexWords(wordKeywords(VOCABULARY_AUTOMATON, foldedText));
  for (const { rule, compiled } of COMPILED) {
    for (const match of matchPhrase(compiled, index, MAX_MATCHES_PER_RULE)) {
      const span = toOriginalSpan(scan.folded.view, match.start, match.end);
      const factor = mentionFactor(scope, span.start, span.end, match.start, match.end);
      matches.push({ ruleId: rule.id, family: rule.family, ...span, confidence: rule.confidence * factor });
    }
  }

  matchSpacedRegions(scan, matches);

  const cleanText = scan.clean.text;
  for (const template of TEMPLATE_RULES) {
    let count = 0;
    const hits = template.block === undefined ? matchPattern(cleanText, template.pattern) : matchBlocks(cleanText, template.block);
    for (const hit of hits) {
      const span = toOriginalSpan(scan.clean, hit.start, hit.end);
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

interface Hit {
  start: number;
  end: number;
}

function* matchPattern(text: string, pattern: RegExp): Generator<Hit> {
  for (const match of text.matchAll(pattern)) {
    const leading = match[0].length - match[0].trimStart().length;
    yield { start: match.index + leading, end: match.index + match[0].length };
  }
}

/** Delimited blocks by string search; the next closer is cached, so many openers stay linear. */
function* matchBlocks(text: string, block: NonNullable<(typeof TEMPLATE_RULES)[number]['block']>): Generator<Hit> {
  let close = -2;
  let open = text.indexOf(block.open);
  while (open !== -1) {
    const bodyStart = open + block.open.length;
    if (close !== -1 && close < bodyStart) close = text.indexOf(block.close, bodyStart);
    if (close === -1) return;
    if (close - bodyStart <= block.maxBody && block.foldedBody.test(foldPhrase(text.slice(bodyStart, close)))) {
      yield { start: open, end: close + block.close.length };
      open = text.indexOf(block.open, close + block.close.length);
    } else {
      open = text.indexOf(block.open, bodyStart);
    }
  }
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
    for (const [ruleIndex, { rule, compiled }] of COMPILED.entries()) {
      if (!COMPACT_TRIGGERS[ruleIndex]!.some((trigger) => compact.includes(trigger))) continue;
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
