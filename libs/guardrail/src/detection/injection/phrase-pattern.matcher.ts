import type { WordKeywords } from '../text/keyword.automaton';
import { foldPhrase } from '../text/matching-fold.normalizer';

/**
 * A tiny pattern language for injection phrases, matched against the folded skeleton text.
 * Rules are sequences of slots: word alternatives ("ignore|disregard"), optional alternatives,
 * and bounded gaps of arbitrary words. Authors write natural words (with accents, "l", "'");
 * the compiler folds them exactly as the text is folded.
 *
 * Matching works on words, not characters: the skeleton is split into words once, and a rule
 * is tried only at occurrences of its first slot's words, extending slot by slot through hash
 * lookups. Work per occurrence is bounded by the product of the gaps, so a scan is linear in
 * the text whatever its shape (a regex with gaps costs several milliseconds on "ignore ignore …").
 *
 * Each rule also compiles to a compact regex (no spaces, gaps in letters) that runs only on
 * regions written as spaced-out letters, where word boundaries are lost ("i g n o r e a l l …").
 */
export type Slot = { words: string } | { optional: string } | { gap: number };

export const words = (alternatives: string): Slot => ({ words: alternatives });
export const optional = (alternatives: string): Slot => ({ optional: alternatives });
export const gap = (maxWords: number): Slot => ({ gap: maxWords });

type CompiledSlot =
  | { kind: 'words' | 'optional'; byFirst: ReadonlyMap<number, ReadonlyArray<Int32Array>> }
  | { kind: 'gap'; max: number };

export interface CompiledPhrase {
  slots: readonly CompiledSlot[];
  /** Vocabulary ids of the leading slot's first words: where a match can start. */
  firstWords: readonly number[];
  /** Leading words as text, for the compact matcher's prefilter. */
  firstWordTexts: readonly string[];
  /** For each mandatory slot, its alternatives' first words: one of each must occur somewhere. */
  required: ReadonlyArray<readonly number[]>;
  compact: RegExp;
}

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

/**
 * Words of all phrases, numbered. Phrases compile against one shared vocabulary so the text is
 * scanned once for all rules (see indexWords).
 */
export class Vocabulary {
  private readonly ids = new Map<string, number>();

  id(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      if (/[^\x00-\x7f]/.test(word)) throw new Error(`phrase word "${word}" must fold to ASCII`);
      id = this.ids.size;
      this.ids.set(word, id);
    }
    return id;
  }

  words(): string[] {
    return [...this.ids.keys()];
  }
}

export function compilePhrase(slots: readonly Slot[], vocabulary: Vocabulary): CompiledPhrase {
  const first = slots[0];
  if (first === undefined || !('words' in first)) throw new Error('A phrase must start with a words slot');
  let compact = '';
  const compiled = slots.map((slot): CompiledSlot => {
    if ('gap' in slot) {
      compact += `[\\p{L}\\p{N}]{0,${slot.gap * COMPACT_LETTERS_PER_WORD}}?`;
      return { kind: 'gap', max: slot.gap };
    }
    const list = alternatives('words' in slot ? slot.words : slot.optional);
    const byFirst = new Map<number, Int32Array[]>();
    for (const alternative of list) {
      const sequence = Int32Array.from(alternative.split(' ').map((word) => vocabulary.id(word)));
      const bucket = byFirst.get(sequence[0]!) ?? [];
      bucket.push(sequence);
      byFirst.set(sequence[0]!, bucket);
    }
    const compactGroup = `(?:${list.map((alternative) => escape(alternative.replace(/ /g, ''))).join('|')})`;
    compact += 'words' in slot ? compactGroup : `${compactGroup}?`;
    return { kind: 'words' in slot ? 'words' : 'optional', byFirst };
  });
  const leading = compiled[0] as Extract<CompiledSlot, { kind: 'words' | 'optional' }>;
  const required = compiled.flatMap((slot) => (slot.kind === 'words' ? [[...slot.byFirst.keys()]] : []));
  const firstWordTexts = [...new Set(alternatives((first as { words: string }).words).map((alternative) => alternative.split(' ')[0]!))];
  return { slots: compiled, firstWords: [...leading.byFirst.keys()], firstWordTexts, required, compact: new RegExp(compact, 'gu') };
}

/** The skeleton's words as vocabulary ids (-1 for other words), with their offsets. */
export interface WordIndex {
  ids: Int32Array;
  starts: Int32Array;
  ends: Int32Array;
  count: number;
  /** Word positions per vocabulary id (only ids that occur). */
  positions: ReadonlyMap<number, readonly number[]>;
}

export function indexWords(words: WordKeywords): WordIndex {
  const positions = new Map<number, number[]>();
  for (let w = 0; w < words.count; w++) {
    const id = words.ids[w]!;
    if (id < 0) continue;
    const list = positions.get(id);
    if (list === undefined) positions.set(id, [w]);
    else list.push(w);
  }
  return { ...words, positions };
}

/** End word index (exclusive) of the shortest match of slots[from..] at word `at`, or -1. */
function matchFrom(slots: readonly CompiledSlot[], from: number, ids: Int32Array, count: number, at: number): number {
  if (from === slots.length) return at;
  const slot = slots[from]!;
  if (slot.kind === 'gap') {
    for (let skip = 0; skip <= slot.max && at + skip <= count; skip++) {
      const end = matchFrom(slots, from + 1, ids, count, at + skip);
      if (end !== -1) return end;
    }
    return -1;
  }
  const candidates = at < count && ids[at]! >= 0 ? slot.byFirst.get(ids[at]!) : undefined;
  if (candidates !== undefined) {
    for (const sequence of candidates) {
      let fits = at + sequence.length <= count;
      for (let k = 1; fits && k < sequence.length; k++) if (ids[at + k] !== sequence[k]) fits = false;
      if (!fits) continue;
      const end = matchFrom(slots, from + 1, ids, count, at + sequence.length);
      if (end !== -1) return end;
    }
  }
  return slot.kind === 'optional' ? matchFrom(slots, from + 1, ids, count, at) : -1;
}

/** Non-overlapping matches as skeleton offsets, at most `limit`. */
export function matchPhrase(phrase: CompiledPhrase, index: WordIndex, limit: number): Array<{ start: number; end: number }> {
  // Cheap global test first: every mandatory slot needs one of its words somewhere in the text.
  for (const firstWords of phrase.required) {
    if (!firstWords.some((word) => index.positions.has(word))) return [];
  }
  let total = 0;
  const lists: Array<readonly number[]> = [];
  for (const word of phrase.firstWords) {
    const list = index.positions.get(word);
    if (list === undefined) continue;
    lists.push(list);
    total += list.length;
  }
  if (total === 0) return [];
  const starts = new Int32Array(total);
  let filled = 0;
  for (const list of lists) for (let k = 0; k < list.length; k++) starts[filled++] = list[k]!;
  if (lists.length > 1) starts.sort();
  const matches: Array<{ start: number; end: number }> = [];
  let resumeAt = 0;
  for (const at of starts) {
    if (at < resumeAt) continue;
    const end = matchFrom(phrase.slots, 0, index.ids, index.count, at);
    if (end === -1 || end === at) continue;
    matches.push({ start: index.starts[at]!, end: index.ends[end - 1]! });
    resumeAt = end;
    if (matches.length >= limit) break;
  }
  return matches;
}
