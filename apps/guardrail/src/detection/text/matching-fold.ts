import { HOMOGLYPHS, LATIN_EXPANSIONS } from './homoglyph.map';
import type { ObfuscationSignal } from './obfuscation-signal';
import { TextViewBuilder, type Span, type TextView } from './text-view';

/**
 * The "skeleton" used for phrase matching (injection rules, blocked terms): lowercase, accents
 * stripped, homoglyphs and leetspeak folded to Latin letters, spaced-out letters joined, and
 * everything that is not a letter or digit collapsed to one space.
 *
 * Because leetspeak writes both "i" and "l" as "1", the skeleton folds "l" to "i"; phrase
 * patterns are folded the same way (see `foldLiteral`), so authors write plain words.
 */
export interface FoldedText {
  view: TextView;
  /** Original spans of tokens rewritten from leetspeak. */
  leetSpans: Span[];
  /** Skeleton ranges whose letters were spaced out ("i g n o r e"); matched again without spaces. */
  spacedRegions: Span[];
  /** Original spans of the spaced regions, for attributing obfuscation. */
  spacedOriginalSpans: Span[];
  signals: ObfuscationSignal[];
}

const LEET: Readonly<Record<string, string>> = {
  '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '6': 'g', '7': 't', '8': 'b', '9': 'g',
  '@': 'a', '$': 's', '!': 'i', '|': 'i', '+': 't',
};
const LEET_SYMBOLS = '@$!|+';
const APOSTROPHES = new Set(["'", '’', 'ʼ', '`', '´']);
const LETTER = /^\p{L}$/u;
const MARK = /^\p{M}$/u;

/** Origin of a skeleton unit, used to spot words that mix Latin with look-alike letters. */
const ORIGIN_OTHER = 0;
const ORIGIN_ASCII_LETTER = 1;
const ORIGIN_HOMOGLYPH = 2;

const foldCache = new Map<number, string>();

/** Folds one non-ASCII code point to skeleton letters ('' drops it, ' ' makes it a separator). */
function foldCodePoint(cp: number): string {
  const cached = foldCache.get(cp);
  if (cached !== undefined) return cached;
  const char = String.fromCodePoint(cp);
  let folded: string;
  const homoglyph = HOMOGLYPHS.get(cp);
  const expansion = LATIN_EXPANSIONS.get(char);
  if (homoglyph !== undefined) folded = homoglyph;
  else if (expansion !== undefined) folded = expansion;
  else if (MARK.test(char)) folded = '';
  else if (LETTER.test(char)) {
    const base = char.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    folded = base.length > 0 ? base : char.toLowerCase();
  } else if (/^\s$/u.test(char)) folded = ' ';
  else folded = '\u0000';
  folded = folded.replace(/l/g, 'i');
  if (foldCache.size < 4096) foldCache.set(cp, folded);
  return folded;
}

/** Applies the skeleton's character folding to a pattern literal or a blocked term. */
export function foldLiteral(text: string): string {
  let out = '';
  for (const char of text.normalize('NFKC')) {
    const cp = char.codePointAt(0)!;
    if (cp < 0x80) out += /[A-Za-z]/.test(char) ? char.toLowerCase().replace('l', 'i') : char;
    else {
      const folded = foldCodePoint(cp);
      out += folded === '\u0000' ? char : folded;
    }
  }
  return out;
}

/**
 * Folds a phrase the way `foldForMatching` folds text: characters as in `foldLiteral`, leetspeak
 * inside mixed tokens, and every run of non-word characters to one space.
 */
export function foldPhrase(phrase: string): string {
  return foldLiteral(phrase)
    .split(/[^a-z0-9\p{L}]+/u)
    .filter((token) => token.length > 0)
    .map((token) => foldLeet(token) ?? token)
    .join(' ');
}

interface PassA {
  chars: string[];
  starts: Int32Array;
  ends: Int32Array;
  origins: Uint8Array;
}

/** Pass A: per code point folding; punctuation is kept for the token pass. */
function foldCharacters(clean: TextView): PassA {
  const text = clean.text;
  const chars: string[] = [];
  let capacity = text.length + 16;
  let starts = new Int32Array(capacity);
  let ends = new Int32Array(capacity);
  let origins = new Uint8Array(capacity);
  const push = (char: string, index: number, width: number, origin: number): void => {
    if (chars.length >= capacity) {
      capacity *= 2;
      const s = new Int32Array(capacity);
      s.set(starts);
      starts = s;
      const e = new Int32Array(capacity);
      e.set(ends);
      ends = e;
      const o = new Uint8Array(capacity);
      o.set(origins);
      origins = o;
    }
    const n = chars.length;
    if (clean.starts === null || clean.ends === null) {
      starts[n] = index;
      ends[n] = index + width;
    } else {
      starts[n] = clean.starts[index]!;
      ends[n] = clean.ends[index + width - 1]!;
    }
    origins[n] = origin;
    chars.push(char);
  };

  for (let i = 0; i < text.length; ) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) {
      if (unit >= 0x41 && unit <= 0x5a) {
        const lower = String.fromCharCode(unit + 32);
        push(lower === 'l' ? 'i' : lower, i, 1, ORIGIN_ASCII_LETTER);
      } else if (unit >= 0x61 && unit <= 0x7a) {
        push(unit === 0x6c ? 'i' : text[i]!, i, 1, ORIGIN_ASCII_LETTER);
      } else if (unit <= 0x20 || unit === 0x7f) {
        push(' ', i, 1, ORIGIN_OTHER);
      } else {
        push(text[i]!, i, 1, ORIGIN_OTHER);
      }
      i += 1;
      continue;
    }
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    const folded = foldCodePoint(cp);
    if (APOSTROPHES.has(String.fromCodePoint(cp))) push("'", i, width, ORIGIN_OTHER);
    else if (folded === '\u0000') push(' ', i, width, ORIGIN_OTHER);
    else {
      const origin = HOMOGLYPHS.has(cp) ? ORIGIN_HOMOGLYPH : ORIGIN_OTHER;
      for (const char of folded) push(char, i, width, origin);
    }
    i += width;
  }
  const n = chars.length;
  return { chars, starts: starts.subarray(0, n), ends: ends.subarray(0, n), origins: origins.subarray(0, n) };
}

function isWordChar(char: string): boolean {
  const code = char.charCodeAt(0);
  if (code < 0x80) return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39);
  return char !== ' ' && char !== "'";
}

function isLetterChar(char: string): boolean {
  const code = char.charCodeAt(0);
  if (code < 0x80) return code >= 0x61 && code <= 0x7a;
  return char !== ' ' && char !== "'";
}

interface Token {
  from: number;
  to: number;
  text: string;
}

/** Splits pass-A output into tokens of letters, digits and leet symbols surrounded by letters or digits. */
function tokenize(chars: string[]): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = chars.length;
  while (i < n) {
    const char = chars[i]!;
    const startsToken = isWordChar(char) || ((char === '@' || char === '$') && i + 1 < n && isLetterChar(chars[i + 1]!));
    if (!startsToken) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n) {
      const c = chars[j]!;
      if (isWordChar(c)) {
        j++;
        continue;
      }
      // Leet symbols count inside a token only when a word character follows ("pr!vate", "@ll"),
      // so "now!" keeps its exclamation mark as punctuation. "$" may also end a token ("pa$$").
      if (LEET_SYMBOLS.includes(c) && j + 1 < n && (isWordChar(chars[j + 1]!) || (c === '$' && chars[j + 1] === '$'))) {
        j++;
        continue;
      }
      if (c === '$' && j > i) {
        j++;
        continue;
      }
      break;
    }
    tokens.push({ from: i, to: j, text: chars.slice(i, j).join('') });
    i = j;
  }
  return tokens;
}

function foldLeet(token: string): string | null {
  let hasLetter = false;
  let hasLeet = false;
  for (const char of token) {
    if (isLetterChar(char)) hasLetter = true;
    else if (char in LEET) hasLeet = true;
  }
  if (!hasLetter || !hasLeet) return null;
  let out = '';
  for (const char of token) out += LEET[char] ?? char;
  return out;
}

/** Minimum single-letter tokens in a row, single-separated, before we treat them as one spaced-out word. */
const MIN_SPACED_RUN = 3;
/** A separator this short (e.g. "  " or " / ") between spaced runs is a word break inside a spaced region. */
const MAX_WORD_BREAK = 5;

export function foldForMatching(clean: TextView): FoldedText {
  const passA = foldCharacters(clean);
  const { chars, starts, ends, origins } = passA;
  const tokens = tokenize(chars);
  const folded = tokens.map((token) => foldLeet(token.text) ?? token.text);
  const builder = new TextViewBuilder(chars.length + 16);
  const leetSpans: Span[] = [];
  const spacedRegions: Span[] = [];
  const spacedOriginalSpans: Span[] = [];
  const signals: ObfuscationSignal[] = [];

  // Mark single-character tokens that belong to spaced runs.
  const joinWithNext = new Uint8Array(tokens.length);
  const inRun = new Uint8Array(tokens.length);
  let runStart = 0;
  const closeRun = (from: number, to: number): void => {
    if (to - from >= MIN_SPACED_RUN) for (let k = from; k < to; k++) inRun[k] = 1;
    else if (to - from === 2) for (let k = from; k < to; k++) inRun[k] = 2; // short words, joined only next to a real run
  };
  for (let t = 0; t <= tokens.length; t++) {
    const single = t < tokens.length && folded[t]!.length === 1;
    const continues = single && t > runStart && tokens[t]!.from - tokens[t - 1]!.to === 1 && folded[t - 1]!.length === 1;
    if (!continues) {
      if (t > runStart) closeRun(runStart, t);
      runStart = t;
      if (!single) runStart = t + 1;
    }
  }
  for (let t = 0; t < tokens.length; t++) {
    if (inRun[t] !== 2) continue;
    let from = t;
    while (from > 0 && inRun[from - 1] === 2) from--;
    let to = t;
    while (to + 1 < tokens.length && inRun[to + 1] === 2 && tokens[to + 1]!.from - tokens[to]!.to === 1) to++;
    const before = from > 0 && inRun[from - 1] === 1 && tokens[from]!.from - tokens[from - 1]!.to <= MAX_WORD_BREAK;
    const after = to + 1 < tokens.length && inRun[to + 1] === 1 && tokens[to + 1]!.from - tokens[to]!.to <= MAX_WORD_BREAK;
    for (let k = from; k <= to; k++) inRun[k] = before || after ? 1 : 0;
    t = to;
  }
  for (let t = 0; t + 1 < tokens.length; t++) {
    if (inRun[t] === 1 && inRun[t + 1] === 1 && tokens[t + 1]!.from - tokens[t]!.to === 1) joinWithNext[t] = 1;
  }

  let regionStart = -1;
  let regionOriginalStart = -1;
  let regionOriginalEnd = -1;
  let lastWasSpace = true;
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]!;
    const text = folded[t]!;
    const runMember = inRun[t] === 1;
    if (runMember && regionStart < 0) {
      if (!lastWasSpace) builder.push(' ', starts[token.from]!, starts[token.from]!);
      regionStart = builder.size;
      regionOriginalStart = starts[token.from]!;
    }
    if (!runMember && regionStart >= 0) {
      spacedRegions.push({ start: regionStart, end: builder.size });
      spacedOriginalSpans.push({ start: regionOriginalStart, end: regionOriginalEnd });
      regionStart = -1;
    }
    if (text !== token.text) {
      leetSpans.push({ start: starts[token.from]!, end: ends[token.to - 1]! });
      // Leet folding never changes length, so units map one to one.
      for (let k = 0; k < text.length; k++) builder.push(text[k]!, starts[token.from + k]!, ends[token.from + k]!);
    } else {
      for (let k = token.from; k < token.to; k++) builder.push(chars[k]!, starts[k]!, ends[k]!);
    }
    if (runMember) regionOriginalEnd = ends[token.to - 1]!;
    noteMixedScript(token, origins, starts, ends, signals);
    const next = tokens[t + 1];
    if (next === undefined) continue;
    if (joinWithNext[t] === 1) {
      lastWasSpace = false;
      continue;
    }
    // A long gap between spaced runs ends the region (word break inside it is kept as a space).
    if (runMember && !(inRun[t + 1] === 1 && next.from - token.to <= MAX_WORD_BREAK)) {
      spacedRegions.push({ start: regionStart, end: builder.size });
      spacedOriginalSpans.push({ start: regionOriginalStart, end: regionOriginalEnd });
      regionStart = -1;
    }
    builder.push(' ', ends[token.to - 1]!, starts[next.from]!);
    lastWasSpace = true;
  }
  if (regionStart >= 0) {
    spacedRegions.push({ start: regionStart, end: builder.size });
    spacedOriginalSpans.push({ start: regionOriginalStart, end: regionOriginalEnd });
  }
  return { view: builder.build(), leetSpans, spacedRegions, spacedOriginalSpans, signals };
}

/** A word mixing Latin letters with look-alike letters from another script is disguised on purpose. */
function noteMixedScript(token: Token, origins: Uint8Array, starts: Int32Array, ends: Int32Array, signals: ObfuscationSignal[]): void {
  let latin = false;
  let lookalike = false;
  for (let k = token.from; k < token.to; k++) {
    if (origins[k] === ORIGIN_ASCII_LETTER) latin = true;
    else if (origins[k] === ORIGIN_HOMOGLYPH) lookalike = true;
  }
  if (latin && lookalike) {
    signals.push({ kind: 'homoglyph', start: starts[token.from]!, end: ends[token.to - 1]!, confidence: 0.7 });
  }
}
