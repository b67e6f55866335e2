import { HOMOGLYPHS, LATIN_EXPANSIONS } from './homoglyph.map';
import type { ObfuscationSignal } from './obfuscation-signal.model';
import type { Span, TextView } from './text-view.model';

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
const APOSTROPHE_CODES = new Set([0x2019, 0x02bc, 0xb4]);
const LETTER = /^\p{L}$/u;
const MARK = /^\p{M}$/u;

/** Origin of a skeleton unit, used to spot words that mix Latin with look-alike letters. */
const ORIGIN_OTHER = 0;
const ORIGIN_ASCII_LETTER = 1;
const ORIGIN_HOMOGLYPH = 2;

const astralCache = new Map<number, string>();
const HOMOGLYPH_BMP = (() => {
  const table = new Uint8Array(0x10000);
  for (const cp of HOMOGLYPHS.keys()) if (cp <= 0xffff) table[cp] = 1;
  return table;
})();

/** Folds one non-ASCII code point to skeleton letters ('' drops it, '\u0000' makes it a separator). */
function foldCodePoint(cp: number): string {
  const cached = astralCache.get(cp);
  if (cached !== undefined) return cached;
  const folded = computeFold(cp);
  if (cp > 0xffff && astralCache.size < 4096) astralCache.set(cp, folded);
  return folded;
}

function computeFold(cp: number): string {
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
  return folded.replace(/l/g, 'i').slice(0, MAX_EXPANSION);
}

/**
 * BMP fold results, filled lazily: 0 = not computed yet, code + 1 for a one-unit result,
 * DROP, SEPARATOR, or EXPANDS (a multi-unit result kept in `expansions`).
 */
const bmpFold = new Int32Array(0x10000);
const DROP = -1;
const SEPARATOR = -2;
const EXPANDS = -3;
const expansions = new Map<number, string>();

function foldBmp(code: number): number {
  const known = bmpFold[code]!;
  if (known !== 0) return known;
  const folded = computeFold(code);
  let value: number;
  if (folded.length === 0) value = DROP;
  else if (folded === '\u0000') value = SEPARATOR;
  else if (folded.length === 1) value = folded.charCodeAt(0) + 1;
  else {
    expansions.set(code, folded);
    value = EXPANDS;
  }
  bmpFold[code] = value;
  return value;
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

/** Pass-A output: folded UTF-16 units with their original spans and script origin. */
interface PassA {
  codes: Uint16Array;
  /** Original spans per unit; for ASCII input (identity clean view) unit k is simply [k, k+1). */
  starts: Int32Array;
  ends: Int32Array;
  origins: Uint8Array;
  length: number;
  /** Whether any unit came from a look-alike letter (mixed-script checks are skipped otherwise). */
  anyHomoglyph: boolean;
}

const SPACE = 0x20;
/** Longest fold of one code point (expansions and decompositions stay within this). */
const MAX_EXPANSION = 4;
const APOSTROPHE = 0x27;

/** Identity spans shared by ASCII inputs: unit k maps to [k, k+1). Grown on demand. */
let identityStarts = new Int32Array(0);
let identityEnds = new Int32Array(0);

function identitySpans(length: number): { starts: Int32Array; ends: Int32Array } {
  if (identityStarts.length < length) {
    const size = Math.max(length, identityStarts.length * 2);
    identityStarts = new Int32Array(size);
    identityEnds = new Int32Array(size);
    for (let k = 0; k < size; k++) {
      identityStarts[k] = k;
      identityEnds[k] = k + 1;
    }
  }
  return { starts: identityStarts, ends: identityEnds };
}

/**
 * ASCII folding as a lookup table: lower-case, "l" -> "i", controls and whitespace -> space.
 * Hot loops use tables rather than comparisons; on random input (base64 soup, hex) the branch
 * mispredictions of a comparison chain cost five times the table read.
 */
const ASCII_FOLD = (() => {
  const table = new Uint16Array(0x80);
  for (let code = 0; code < 0x80; code++) {
    let folded = code;
    if (code >= 0x41 && code <= 0x5a) folded = code + 32;
    else if (code <= 0x20 || code === 0x7f) folded = 0x20;
    table[code] = folded === 0x6c ? 0x69 : folded;
  }
  return table;
})();

/** 1 for a-z and 0-9 after folding (word characters of the skeleton). */
const ASCII_WORD = (() => {
  const table = new Uint8Array(0x80);
  for (let code = 0; code < 0x80; code++) table[code] = (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) ? 1 : 0;
  return table;
})();

/** ORIGIN_ASCII_LETTER for A-Z and a-z, ORIGIN_OTHER otherwise. */
const ASCII_LETTER = (() => {
  const table = new Uint8Array(0x80);
  for (let code = 0; code < 0x80; code++) table[code] = /[A-Za-z]/.test(String.fromCharCode(code)) ? ORIGIN_ASCII_LETTER : ORIGIN_OTHER;
  return table;
})();

/** Pass A for ASCII text with an identity clean view: one unit per character, no span arrays to fill. */
function foldAscii(text: string): PassA {
  const length = text.length;
  const codes = new Uint16Array(length);
  for (let i = 0; i < length; i++) codes[i] = ASCII_FOLD[text.charCodeAt(i)]!;
  const { starts, ends } = identitySpans(length);
  return { codes, starts, ends, origins: new Uint8Array(0), length, anyHomoglyph: false };
}

/** Pass A: per code point folding; punctuation is kept for the token pass. */
function foldCharacters(clean: TextView): PassA {
  const text = clean.text;
  if (clean.starts === null && !/[^\x00-\x7f]/.test(text)) return foldAscii(text);
  // Grown inline (no closure), so the hot loop's locals stay in registers.
  let capacity = text.length + 16;
  let codes = new Uint16Array(capacity);
  let starts = new Int32Array(capacity);
  let ends = new Int32Array(capacity);
  let origins = new Uint8Array(capacity);
  let length = 0;
  let anyHomoglyph = false;
  const mapped = clean.starts !== null && clean.ends !== null;
  const cleanStarts = clean.starts;
  const cleanEnds = clean.ends;

  for (let i = 0; i < text.length; ) {
    if (length + MAX_EXPANSION >= capacity) {
      capacity = capacity * 2 + MAX_EXPANSION;
      const grownCodes = new Uint16Array(capacity);
      grownCodes.set(codes);
      codes = grownCodes;
      const grownStarts = new Int32Array(capacity);
      grownStarts.set(starts);
      starts = grownStarts;
      const grownEnds = new Int32Array(capacity);
      grownEnds.set(ends);
      ends = grownEnds;
      const grownOrigins = new Uint8Array(capacity);
      grownOrigins.set(origins);
      origins = grownOrigins;
    }
    const unit = text.charCodeAt(i);
    if (unit < 0x80) {
      codes[length] = ASCII_FOLD[unit]!;
      starts[length] = mapped ? cleanStarts![i]! : i;
      ends[length] = mapped ? cleanEnds![i]! : i + 1;
      origins[length] = ASCII_LETTER[unit]!;
      length++;
      i += 1;
      continue;
    }
    const cp = unit >= 0xd800 && unit <= 0xdbff ? text.codePointAt(i)! : unit;
    const width = cp > 0xffff ? 2 : 1;
    const start = mapped ? cleanStarts![i]! : i;
    const end = mapped ? cleanEnds![i + width - 1]! : i + width;
    if (cp <= 0xffff && !APOSTROPHE_CODES.has(cp)) {
      const value = foldBmp(cp);
      if (value > 0 || value === SEPARATOR) {
          codes[length] = value > 0 ? value - 1 : SPACE;
        starts[length] = start;
        ends[length] = end;
        const origin = value > 0 && HOMOGLYPH_BMP[cp] === 1 ? ORIGIN_HOMOGLYPH : ORIGIN_OTHER;
        if (origin === ORIGIN_HOMOGLYPH) anyHomoglyph = true;
        origins[length] = origin;
        length++;
        i += 1;
        continue;
      }
      if (value === DROP) {
        i += 1;
        continue;
      }
    }
    if (APOSTROPHE_CODES.has(cp)) {
      codes[length] = APOSTROPHE;
      starts[length] = start;
      ends[length] = end;
      origins[length] = ORIGIN_OTHER;
      length++;
    } else {
      const folded = cp <= 0xffff ? (expansions.get(cp) ?? foldCodePoint(cp)) : foldCodePoint(cp);
      const origin = HOMOGLYPHS.has(cp) ? ORIGIN_HOMOGLYPH : ORIGIN_OTHER;
      if (origin === ORIGIN_HOMOGLYPH) anyHomoglyph = true;
      for (let k = 0; k < folded.length; k++) {
          const code = folded.charCodeAt(k);
        codes[length] = code === 0 ? SPACE : code;
        starts[length] = start;
        ends[length] = end;
        origins[length] = origin;
        length++;
      }
    }
    i += width;
  }
  return { codes, starts, ends, origins, length, anyHomoglyph };
}

function isWordCode(code: number): boolean {
  return code >= 0x80 || ASCII_WORD[code] === 1;
}

function isLetterCode(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || code >= 0x80;
}

function isLeetSymbol(code: number): boolean {
  return code === 0x40 || code === 0x24 || code === 0x21 || code === 0x7c || code === 0x2b; // @ $ ! | +
}

/** Splits pass-A output into tokens (letters, digits, and leet symbols inside words). Returns [from, to) pairs. */
function tokenize(codes: Uint16Array, n: number): { bounds: Int32Array; count: number } {
  const bounds = new Int32Array(n + 2);
  let count = 0;
  let i = 0;
  while (i < n) {
    const code = codes[i]!;
    const startsToken = isWordCode(code) || ((code === 0x40 || code === 0x24) && i + 1 < n && isLetterCode(codes[i + 1]!));
    if (!startsToken) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n) {
      const c = codes[j]!;
      if (isWordCode(c)) {
        j++;
        continue;
      }
      const next = j + 1 < n ? codes[j + 1]! : -1;
      // Leet symbols count inside a token only when a word character follows ("pr!vate", "@ll"),
      // so "now!" keeps its exclamation mark as punctuation. "$" may also end a token ("pa$$").
      if (isLeetSymbol(c) && next !== -1 && (isWordCode(next) || (c === 0x24 && next === 0x24))) {
        j++;
        continue;
      }
      if (c === 0x24 && j > i) {
        j++;
        continue;
      }
      // An apostrophe between word characters stays inside the token ("t'4" is leet for "t'a");
      // it is emitted as a space.
      if (c === APOSTROPHE && next !== -1 && isWordCode(next) && isWordCode(codes[j - 1]!)) {
        j++;
        continue;
      }
      break;
    }
    bounds[2 * count] = i;
    bounds[2 * count + 1] = j;
    count++;
    i = j;
  }
  return { bounds, count };
}

/** Leet character -> letter code, 0 when the character is not leet. */
const LEET_CODES = (() => {
  const table = new Uint16Array(0x80);
  for (const [from, to] of Object.entries(LEET)) table[from.charCodeAt(0)] = to.charCodeAt(0);
  return table;
})();

/** Folds leetspeak in place when the token mixes letters with digits or leet symbols; returns whether it did. */
function foldLeetInPlace(codes: Uint16Array, from: number, to: number): boolean {
  let hasLetter = false;
  let hasLeet = false;
  for (let k = from; k < to; k++) {
    const code = codes[k]!;
    if (isLetterCode(code)) hasLetter = true;
    else if (code < 0x80 && LEET_CODES[code] !== 0) hasLeet = true;
  }
  if (!hasLetter || !hasLeet) return false;
  for (let k = from; k < to; k++) {
    const code = codes[k]!;
    if (code < 0x80 && LEET_CODES[code] !== 0) codes[k] = LEET_CODES[code]!;
  }
  return true;
}

/** Leet folding of a standalone token (used for phrases and terms). */
function foldLeet(token: string): string | null {
  let hasLetter = false;
  let hasLeet = false;
  for (const char of token) {
    const code = char.charCodeAt(0);
    if (isLetterCode(code)) hasLetter = true;
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
  const { codes, starts, ends, origins, length, anyHomoglyph } = foldCharacters(clean);
  const { bounds, count } = tokenize(codes, length);
  const leetChanged = new Uint8Array(count);
  for (let t = 0; t < count; t++) if (foldLeetInPlace(codes, bounds[2 * t]!, bounds[2 * t + 1]!)) leetChanged[t] = 1;
  const runs = markSpacedRuns(bounds, count);
  return emit({ codes, starts, ends, origins, anyHomoglyph }, bounds, count, leetChanged, runs);
}

interface SpacedRuns {
  /** 1 for tokens inside a spaced-out region. */
  inRun: Uint8Array;
  /** 1 when a token is glued to the next (a spaced-out word continues). */
  joinWithNext: Uint8Array;
  any: boolean;
}

/** Marks single-character tokens that belong to spaced-out words ("i g n o r e"). */
function markSpacedRuns(bounds: Int32Array, count: number): SpacedRuns {
  // 1 = member, 2 = short pair, kept only next to a real run.
  const inRun = new Uint8Array(count);
  const joinWithNext = new Uint8Array(count);
  let runStart = 0;
  for (let t = 0; t <= count; t++) {
    const isSingle = t < count && bounds[2 * t + 1]! - bounds[2 * t]! === 1;
    const continues = isSingle && t > runStart && bounds[2 * t]! - bounds[2 * t - 1]! === 1 && bounds[2 * t - 1]! - bounds[2 * t - 2]! === 1;
    if (continues) continue;
    const size = t - runStart;
    if (size >= MIN_SPACED_RUN) inRun.fill(1, runStart, t);
    else if (size === 2) inRun.fill(2, runStart, t);
    runStart = isSingle ? t : t + 1;
  }
  let any = false;
  for (let t = 0; t < count; t++) {
    if (inRun[t] === 1) any = true;
    if (inRun[t] !== 2) continue;
    let last = t;
    while (last + 1 < count && inRun[last + 1] === 2 && bounds[2 * last + 2]! - bounds[2 * last + 1]! === 1) last++;
    const before = t > 0 && inRun[t - 1] === 1 && bounds[2 * t]! - bounds[2 * t - 1]! <= MAX_WORD_BREAK;
    const after = last + 1 < count && inRun[last + 1] === 1 && bounds[2 * last + 2]! - bounds[2 * last + 1]! <= MAX_WORD_BREAK;
    inRun.fill(before || after ? 1 : 0, t, last + 1);
    if (before || after) any = true;
    t = last;
  }
  if (any) {
    for (let t = 0; t + 1 < count; t++) {
      if (inRun[t] === 1 && inRun[t + 1] === 1 && bounds[2 * t + 2]! - bounds[2 * t + 1]! === 1) joinWithNext[t] = 1;
    }
  }
  return { inRun, joinWithNext, any };
}

/** Writes the skeleton: tokens copied in bulk, one space between tokens unless glued. */
function emit(
  pass: Pick<PassA, 'codes' | 'starts' | 'ends' | 'origins' | 'anyHomoglyph'>,
  bounds: Int32Array,
  count: number,
  leetChanged: Uint8Array,
  runs: SpacedRuns,
): FoldedText {
  const { codes, starts, ends, origins, anyHomoglyph } = pass;
  const { inRun, joinWithNext } = runs;
  const capacity = (count > 0 ? bounds[2 * count - 1]! : 0) + count + 1;
  const outCodes = new Uint16Array(capacity);
  const outStarts = new Int32Array(capacity);
  const outEnds = new Int32Array(capacity);
  const leetSpans: Span[] = [];
  const spacedRegions: Span[] = [];
  const spacedOriginalSpans: Span[] = [];
  const signals: ObfuscationSignal[] = [];
  let size = 0;
  let regionStart = -1;
  let regionOriginalStart = -1;
  let regionOriginalEnd = -1;

  for (let t = 0; t < count; t++) {
    const first = bounds[2 * t]!;
    const last = bounds[2 * t + 1]!;
    const runMember = runs.any && inRun[t] === 1;
    if (runMember && regionStart < 0) {
      regionStart = size;
      regionOriginalStart = starts[first]!;
    }
    if (!runMember && regionStart >= 0) {
      spacedRegions.push({ start: regionStart, end: size });
      spacedOriginalSpans.push({ start: regionOriginalStart, end: regionOriginalEnd });
      regionStart = -1;
    }
    if (leetChanged[t] === 1) leetSpans.push({ start: starts[first]!, end: ends[last - 1]! });
    if (last - first > 32) {
      // Long tokens: bulk copies (memcpy) beat a loop; short ones would pay for the subarray views.
      outCodes.set(codes.subarray(first, last), size);
      outStarts.set(starts.subarray(first, last), size);
      outEnds.set(ends.subarray(first, last), size);
      size += last - first;
    } else {
      for (let k = first; k < last; k++) {
        outCodes[size] = codes[k]!;
        outStarts[size] = starts[k]!;
        outEnds[size] = ends[k]!;
        size++;
      }
    }
    if (runMember) regionOriginalEnd = ends[last - 1]!;
    if (anyHomoglyph) noteMixedScript(first, last, origins, starts, ends, signals);
    if (t + 1 >= count) continue;
    if (runs.any && joinWithNext[t] === 1) continue;
    const nextFirst = bounds[2 * t + 2]!;
    // A long gap between spaced runs ends the region (a word break inside it is kept as a space).
    if (runMember && !(inRun[t + 1] === 1 && nextFirst - last <= MAX_WORD_BREAK)) {
      spacedRegions.push({ start: regionStart, end: size });
      spacedOriginalSpans.push({ start: regionOriginalStart, end: regionOriginalEnd });
      regionStart = -1;
    }
    outCodes[size] = SPACE;
    outStarts[size] = ends[last - 1]!;
    outEnds[size] = starts[nextFirst]!;
    size++;
  }
  if (regionStart >= 0) {
    spacedRegions.push({ start: regionStart, end: size });
    spacedOriginalSpans.push({ start: regionOriginalStart, end: regionOriginalEnd });
  }
  // Apostrophes kept inside tokens ("t'a") read as word breaks in the skeleton.
  const text = UTF16.decode(outCodes.subarray(0, size)).replace(/'/g, ' ');
  return { view: { text, starts: outStarts.subarray(0, size), ends: outEnds.subarray(0, size) }, leetSpans, spacedRegions, spacedOriginalSpans, signals };
}

const UTF16 = new TextDecoder('utf-16le', { ignoreBOM: true });

/** A word mixing Latin letters with look-alike letters from another script is disguised on purpose. */
function noteMixedScript(first: number, last: number, origins: Uint8Array, starts: Int32Array, ends: Int32Array, signals: ObfuscationSignal[]): void {
  let latin = false;
  let lookalike = false;
  for (let k = first; k < last; k++) {
    if (origins[k] === ORIGIN_ASCII_LETTER) latin = true;
    else if (origins[k] === ORIGIN_HOMOGLYPH) lookalike = true;
  }
  if (!latin || !lookalike) return;
  const start = starts[first]!;
  const end = ends[last - 1]!;
  // Neighbouring disguised words extend one signal instead of piling up thousands.
  const previous = signals[signals.length - 1];
  if (previous !== undefined && previous.kind === 'homoglyph' && start <= previous.end + 3) previous.end = end;
  else signals.push({ kind: 'homoglyph', start, end, confidence: 0.7 });
}
