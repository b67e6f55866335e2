import { foldPhrase } from '../text/matching-fold';

/**
 * A tiny pattern language for injection phrases, compiled against the folded skeleton text.
 * Rules are sequences of slots: word alternatives ("ignore|disregard"), optional alternatives,
 * and bounded gaps of arbitrary words. Authors write natural words (with accents, "l", "'");
 * the compiler folds them exactly as the text is folded.
 *
 * Each rule compiles twice: a spaced form for ordinary text, and a compact form (no spaces,
 * gaps in letters) that runs only on regions written as spaced-out letters, where word
 * boundaries are lost ("i g n o r e a l l …").
 */
export type Slot = { words: string } | { optional: string } | { gap: number };

export const words = (alternatives: string): Slot => ({ words: alternatives });
export const optional = (alternatives: string): Slot => ({ optional: alternatives });
export const gap = (maxWords: number): Slot => ({ gap: maxWords });

export interface CompiledPhrase {
  spaced: RegExp;
  compact: RegExp;
  /** First words of the leading slot; the rule is skipped unless one occurs in the text. */
  triggers: readonly string[];
}

/** Longest word a gap may skip; bounds backtracking on long non-space runs. */
const MAX_GAP_WORD = 30;
/** Average letters per skipped word in compact form. */
const COMPACT_LETTERS_PER_WORD = 8;

function alternatives(source: string): string[] {
  const folded = source
    .split('|')
    .map((alternative) => foldPhrase(alternative))
    .filter((alternative) => alternative.length > 0);
  return [...new Set(folded)].sort((a, b) => b.length - a.length);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function compilePhrase(slots: readonly Slot[]): CompiledPhrase {
  const first = slots[0];
  if (first === undefined || !('words' in first)) throw new Error('A phrase must start with a words slot');
  let spaced = '(?<![\\p{L}\\p{N}])';
  let compact = '';
  slots.forEach((slot, index) => {
    if ('gap' in slot) {
      spaced += `(?: [^ ]{1,${MAX_GAP_WORD}}){0,${slot.gap}}?`;
      compact += `[\\p{L}\\p{N}]{0,${slot.gap * COMPACT_LETTERS_PER_WORD}}?`;
      return;
    }
    const list = alternatives('words' in slot ? slot.words : slot.optional);
    const spacedGroup = `(?:${list.map(escape).join('|')})`;
    const compactGroup = `(?:${list.map((alternative) => escape(alternative.replace(/ /g, ''))).join('|')})`;
    const lead = index === 0 ? '' : ' ';
    if ('words' in slot) {
      spaced += `${lead}${spacedGroup}`;
      compact += compactGroup;
    } else {
      spaced += `(?:${lead}${spacedGroup})?`;
      compact += `${compactGroup}?`;
    }
  });
  spaced += '(?![\\p{L}\\p{N}])';
  const triggers = [...new Set(alternatives(first.words).map((alternative) => alternative.split(' ')[0]!))];
  return { spaced: new RegExp(spaced, 'gu'), compact: new RegExp(compact, 'gu'), triggers };
}
