/**
 * Aho-Corasick automaton over lower-case ASCII keywords, compiled to a dense DFA: one table
 * lookup per character reports which keywords occur, in O(text + keywords) whatever the text
 * looks like. Used as the prefilter that decides which rules run (as gitleaks does with rule
 * keywords); an `includes` per keyword degrades to O(text × keywords) on inputs like "aaaa…".
 */
const ALPHABET = 128;

export class KeywordAutomaton {
  private readonly delta: Int32Array;
  /** Keyword indexes ending at each state (including via failure links). */
  private readonly outputs: Int32Array[];

  constructor(readonly keywords: readonly string[]) {
    const children: Array<Map<number, number>> = [new Map()];
    const ends: number[][] = [[]];
    keywords.forEach((keyword, index) => {
      let state = 0;
      for (let i = 0; i < keyword.length; i++) {
        const code = keyword.charCodeAt(i);
        if (code >= ALPHABET) throw new Error(`keyword "${keyword}" must be ASCII`);
        let next = children[state]!.get(code);
        if (next === undefined) {
          next = children.length;
          children.push(new Map());
          ends.push([]);
          children[state]!.set(code, next);
        }
        state = next;
      }
      ends[state]!.push(index);
    });
    const states = children.length;
    const delta = new Int32Array(states * ALPHABET);
    const fail = new Int32Array(states);
    const queue: number[] = [];
    for (let code = 0; code < ALPHABET; code++) {
      const child = children[0]!.get(code);
      delta[code] = child ?? 0;
      if (child !== undefined) queue.push(child);
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      ends[state]!.push(...ends[fail[state]!]!);
      for (let code = 0; code < ALPHABET; code++) {
        const child = children[state]!.get(code);
        if (child === undefined) {
          delta[state * ALPHABET + code] = delta[fail[state]! * ALPHABET + code]!;
        } else {
          fail[child] = delta[fail[state]! * ALPHABET + code]!;
          delta[state * ALPHABET + code] = child;
          queue.push(child);
        }
      }
    }
    // Upper-case ASCII letters behave as their lower-case forms: no case branch in the scan loops.
    for (let state = 0; state < states; state++) {
      for (let code = 0x41; code <= 0x5a; code++) delta[state * ALPHABET + code] = delta[state * ALPHABET + code + 32]!;
    }
    this.delta = delta;
    this.outputs = ends.map((list) => Int32Array.from(new Set(list)));
  }

  /** Fills word bounds and, for words equal to a keyword, the keyword's index (see wordKeywords). */
  scanWords(text: string, starts: Int32Array, ends: Int32Array, ids: Int32Array): void {
    const { delta, outputs, keywords } = this;
    let state = 0;
    let word = 0;
    let wordStart = 0;
    let clean = true; // no non-ASCII unit in the current word
    for (let i = 0; i <= text.length; i++) {
      const code = i < text.length ? text.charCodeAt(i) : 0x20;
      if (code === 0x20) {
        starts[word] = wordStart;
        ends[word] = i;
        if (clean && i > wordStart) {
          const hits = outputs[state]!;
          for (let k = 0; k < hits.length; k++) {
            if (keywords[hits[k]!]!.length === i - wordStart) {
              ids[word] = hits[k]!;
              break;
            }
          }
        }
        word++;
        wordStart = i + 1;
        state = 0;
        clean = true;
        continue;
      }
      if (code >= ALPHABET) {
        clean = false;
        state = 0;
        continue;
      }
      state = delta[state * ALPHABET + code]!;
    }
  }

  /**
   * Indexes of the keywords present in `text`, compared with ASCII letters lower-cased. With
   * `wholeWords`, a keyword counts only between spaces or text edges (for the folded skeleton,
   * whose words are separated by single spaces).
   */
  present(text: string, wholeWords = false): Set<number> {
    const found = new Set<number>();
    const { delta, outputs, keywords } = this;
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= ALPHABET) {
        state = 0;
        continue;
      }
      state = delta[state * ALPHABET + code]!;
      const hits = outputs[state]!;
      if (hits.length === 0) continue;
      if (wholeWords && i + 1 < text.length && text.charCodeAt(i + 1) !== 0x20) continue;
      for (let k = 0; k < hits.length; k++) {
        const hit = hits[k]!;
        if (wholeWords) {
          const before = i - keywords[hit]!.length;
          if (before >= 0 && text.charCodeAt(before) !== 0x20) continue;
        }
        found.add(hit);
      }
    }
    return found;
  }
}

/** Words of a space-separated text, with the keyword each word equals (or -1). */
export interface WordKeywords {
  starts: Int32Array;
  ends: Int32Array;
  ids: Int32Array;
  count: number;
}

/**
 * Splits `text` on single spaces (the folded skeleton's only separator) and reports, per word,
 * which keyword it equals, in one pass with no string allocation.
 */
export function wordKeywords(automaton: KeywordAutomaton, text: string): WordKeywords {
  let count = text.length === 0 ? 0 : 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 0x20) count++;
  const starts = new Int32Array(count);
  const ends = new Int32Array(count);
  const ids = new Int32Array(count).fill(-1);
  automaton.scanWords(text, starts, ends, ids);
  return { starts, ends, ids, count };
}
