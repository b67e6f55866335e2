import type { ObfuscationSignal } from './obfuscation-signal.model';
import { identityView, TextViewBuilder, type TextView } from './text-view.model';

/**
 * First normalization layer, used by every detector: drops invisible and bidi controls, decodes
 * Unicode tag characters (a known way to smuggle hidden instructions), shows right-to-left
 * overrides in display order and applies NFKC so full-width or mathematical letters read as
 * plain ones. Each output unit maps to the original.
 *
 * The loop looks every BMP character up in a table built once (NFKC-stable or not, combining or
 * not, which control it is), so the common case costs one array read per character.
 */
export interface CleanedText {
  view: TextView;
  signals: ObfuscationSignal[];
}

const ZERO_WIDTH = [
  0x00ad, 0x034f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180e, 0x200b, 0x200c, 0x200d, 0x2060, 0x2061, 0x2062, 0x2063,
  0x2064, 0x3164, 0xfeff, 0xffa0,
];
const JOINERS = new Set([0x200c, 0x200d]);
const BIDI_MARKS = [0x200e, 0x200f, 0x061c];
const COMBINING_MARK = /^\p{M}$/u;
const RIGHT_TO_LEFT_SCRIPT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
const BLACK_FLAG = 0x1f3f4;
const RIGHT_TO_LEFT_OVERRIDE = 0x202e;
/** Longest override segment reversed as one unit (a line of text). */
const MAX_OVERRIDE = 4_096;
/** An override segment ends at a pop, an isolate end, a new override or the end of the line. */
const OVERRIDE_END = new Set([0x202c, 0x2069, 0x202d, 0x202e, 0x0a]);
/** More combining marks than this on one letter is "zalgo" text, not a real orthography. */
const MAX_NATURAL_MARKS = 4;
/** A run this long of invisible characters is steganography even between non-letters. */
const INVISIBLE_RUN_SIGNAL = 4;

// Per-BMP-character flags.
const UNSTABLE = 1; // NFKC changes the character on its own
const COMBINES = 2; // may combine with what precedes it (marks, Hangul medial/final jamo)
const ZERO_WIDTH_FLAG = 4;
const BIDI_MARK_FLAG = 8;
const BIDI_CONTROL_FLAG = 16;
const VARIATION_FLAG = 32;
const SPECIAL = ZERO_WIDTH_FLAG | BIDI_MARK_FLAG | BIDI_CONTROL_FLAG | VARIATION_FLAG;

let bmpFlags: Uint8Array | null = null;

/** Built on first non-ASCII input (about 20 ms once); ASCII input never needs it. */
function flags(): Uint8Array {
  if (bmpFlags !== null) return bmpFlags;
  const table = new Uint8Array(0x10000);
  for (let code = 0x80; code < 0x10000; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const char = String.fromCharCode(code);
    if (char.normalize('NFKC') !== char) table[code] |= UNSTABLE;
    if (COMBINING_MARK.test(char) || (code >= 0x1160 && code <= 0x11ff)) table[code] |= COMBINES;
  }
  for (const code of ZERO_WIDTH) table[code] = ZERO_WIDTH_FLAG;
  for (const code of BIDI_MARKS) table[code] = BIDI_MARK_FLAG;
  for (let code = 0x202a; code <= 0x202e; code++) table[code] = BIDI_CONTROL_FLAG;
  for (let code = 0x2066; code <= 0x2069; code++) table[code] = BIDI_CONTROL_FLAG;
  for (let code = 0xfe00; code <= 0xfe0f; code++) table[code] = VARIATION_FLAG;
  bmpFlags = table;
  return table;
}

function isTag(cp: number): boolean {
  return cp >= 0xe0000 && cp <= 0xe007f;
}

/** Astral ranges with compatibility mappings (math alphanumerics, enclosed alphanumerics, CJK compatibility, musical symbols). */
function astralUnstable(cp: number): boolean {
  return (cp >= 0x1d400 && cp <= 0x1d7ff) || (cp >= 0x1f100 && cp <= 0x1f1ff) || (cp >= 0x2f800 && cp <= 0x2fa1f) || (cp >= 0x1d15e && cp <= 0x1d1c0);
}

function astralCombines(cp: number): boolean {
  return COMBINING_MARK.test(String.fromCodePoint(cp));
}

function isSpecial(cp: number): boolean {
  if (cp <= 0xffff) return (flags()[cp]! & SPECIAL) !== 0;
  return isTag(cp) || (cp >= 0xe0100 && cp <= 0xe01ef);
}

function combines(input: string, index: number): boolean {
  if (index >= input.length) return false;
  const code = input.charCodeAt(index);
  if (code < 0x300) return false;
  if (code >= 0xd800 && code <= 0xdbff) return astralCombines(input.codePointAt(index)!);
  return (flags()[code]! & COMBINES) !== 0;
}

function isLatinWordChar(cp: number): boolean {
  return (
    (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || (cp >= 0xc0 && cp <= 0x24f)
  );
}

/** Nearest code point on one side that is not itself an invisible/control character. */
function visibleNeighbor(input: string, index: number, direction: -1 | 1): number {
  let position = index;
  for (let steps = 0; steps < 16; steps++) {
    if (position < 0 || position >= input.length) return -1;
    let cp = input.codePointAt(position)!;
    if (direction === -1 && cp >= 0xdc00 && cp <= 0xdfff && position > 0) {
      cp = input.codePointAt(position - 1)!;
      position -= 1;
    }
    if (!isSpecial(cp)) return cp;
    position += direction === 1 ? (cp > 0xffff ? 2 : 1) : -1;
  }
  return -1;
}

/** Appends a signal, extending the previous one of the same kind when they (nearly) touch. */
function pushSignal(signals: ObfuscationSignal[], kind: ObfuscationSignal['kind'], start: number, end: number, confidence: number): void {
  const last = signals[signals.length - 1];
  if (last !== undefined && last.kind === kind && start <= last.end + 3) {
    last.end = Math.max(last.end, end);
    last.confidence = Math.max(last.confidence, confidence);
    return;
  }
  signals.push({ kind, start, end, confidence });
}

export function cleanUnicode(input: string): CleanedText {
  if (!/[^\x00-\x7f]/.test(input)) return { view: identityView(input), signals: [] };

  const table = flags();
  const builder = new TextViewBuilder(input.length + 16);
  const signals: ObfuscationSignal[] = [];
  let invisibleRunStart = -1;
  let invisibleRunCount = 0;

  let i = 0;
  while (i < input.length) {
    const code = input.charCodeAt(i);
    if (code !== 0x200b && code !== 0x200c && code !== 0x200d && code !== 0x2060 && code !== 0xfeff && invisibleRunCount > 0) {
      if (invisibleRunCount >= INVISIBLE_RUN_SIGNAL) pushSignal(signals, 'invisible_characters', invisibleRunStart, i, 0.9);
      invisibleRunCount = 0;
    }

    if (code < 0x80) {
      // An ASCII letter followed by a combining mark composes with it ("e" + U+0301 -> "é").
      if (combines(input, i + 1)) i = processCluster(input, i, builder, signals);
      else {
        builder.pushCode(code, i, i + 1);
        i++;
      }
      continue;
    }

    const cp = code >= 0xd800 && code <= 0xdbff ? input.codePointAt(i)! : code;
    if (cp > 0xffff) {
      if (isTag(cp)) {
        i = processTagRun(input, i, builder, signals);
        continue;
      }
      if (cp >= 0xe0100 && cp <= 0xe01ef) {
        i += 2; // variation selector: presentation only
        continue;
      }
      if (astralUnstable(cp) || combines(input, i + 2)) i = processCluster(input, i, builder, signals);
      else {
        builder.pushCode(code, i, i + 2);
        builder.pushCode(input.charCodeAt(i + 1), i, i + 2);
        i += 2;
      }
      continue;
    }

    const flag = table[code]!;
    if ((flag & SPECIAL) === 0) {
      if ((flag & (UNSTABLE | COMBINES)) !== 0 || combines(input, i + 1)) i = processCluster(input, i, builder, signals);
      else {
        builder.pushCode(code, i, i + 1);
        i++;
      }
      continue;
    }

    if (flag === ZERO_WIDTH_FLAG) {
      if (invisibleRunCount === 0) invisibleRunStart = i;
      invisibleRunCount++;
      const before = visibleNeighbor(input, i - 1, -1);
      const after = visibleNeighbor(input, i + 1, 1);
      const insideLatinWord = isLatinWordChar(before) && isLatinWordChar(after);
      // ZWJ/ZWNJ are legitimate in emoji sequences and Indic/Arabic orthography.
      const legitimateJoiner = JOINERS.has(code) && !insideLatinWord;
      const byteOrderMark = code === 0xfeff && i === 0;
      if (insideLatinWord && !legitimateJoiner && !byteOrderMark) pushSignal(signals, 'invisible_characters', i, i + 1, 0.8);
      i++;
      continue;
    }
    if (code === RIGHT_TO_LEFT_OVERRIDE) {
      i = processOverride(input, i, builder, signals);
      continue;
    }
    if (flag === BIDI_CONTROL_FLAG || flag === BIDI_MARK_FLAG) {
      const rightToLeftContext = RIGHT_TO_LEFT_SCRIPT.test(input.slice(Math.max(0, i - 24), i + 24));
      const suspicious =
        flag === BIDI_CONTROL_FLAG
          ? !rightToLeftContext
          : isLatinWordChar(visibleNeighbor(input, i - 1, -1)) && isLatinWordChar(visibleNeighbor(input, i + 1, 1)) && !rightToLeftContext;
      if (suspicious) pushSignal(signals, 'bidi_control', i, i + 1, 0.8);
      i++;
      continue;
    }
    // Variation selector: presentation only.
    i++;
  }
  if (invisibleRunCount >= INVISIBLE_RUN_SIGNAL) pushSignal(signals, 'invisible_characters', invisibleRunStart, input.length, 0.9);
  return { view: builder.build(), signals };
}

/** Normalizes one base character with its combining marks; each output unit maps to the cluster. */
function processCluster(input: string, start: number, builder: TextViewBuilder, signals: ObfuscationSignal[]): number {
  const base = input.codePointAt(start)!;
  let position = start + (base > 0xffff ? 2 : 1);
  let marks = 0;
  while (position < input.length && combines(input, position)) {
    marks++;
    position += input.codePointAt(position)! > 0xffff ? 2 : 1;
  }
  if (marks > MAX_NATURAL_MARKS) {
    pushSignal(signals, 'combining_flood', start, position, 0.6);
    // Zalgo marks carry no meaning; keep the base letter only.
    builder.push(String.fromCodePoint(base).normalize('NFKC'), start, position);
  } else {
    builder.push(input.slice(start, position).normalize('NFKC'), start, position);
  }
  return position;
}

/**
 * U+202E displays the following text right to left, so "snoitcurtsni erongi" reads as
 * "ignore instructions" on screen. The segment up to the matching pop (or line end) is
 * emitted in display order, every unit mapped to the whole segment.
 */
function processOverride(input: string, start: number, builder: TextViewBuilder, signals: ObfuscationSignal[]): number {
  let end = start + 1;
  while (end < input.length && end - start < MAX_OVERRIDE && !OVERRIDE_END.has(input.charCodeAt(end))) end++;
  const stop = input.charCodeAt(end);
  const terminated = end < input.length && (stop === 0x202c || stop === 0x2069);
  const segmentEnd = terminated ? end + 1 : end;
  let ascii = true;
  for (let i = start + 1; i < end && ascii; i++) if (input.charCodeAt(i) >= 0x80) ascii = false;
  if (ascii) {
    // Common case, no string work: emit the units backwards.
    for (let i = end - 1; i > start; i--) builder.pushCode(input.charCodeAt(i), start, segmentEnd);
    pushSignal(signals, 'bidi_control', start, segmentEnd, 0.9);
    return segmentEnd;
  }
  const segment = input.slice(start + 1, end);
  if (RIGHT_TO_LEFT_SCRIPT.test(segment)) {
    // Genuine right-to-left text: logical order is already reading order.
    builder.pushFromView(identityView(input), start + 1, end);
    return segmentEnd;
  }
  const displayed = [...segment].reverse().join('').normalize('NFKC');
  builder.push(displayed, start, segmentEnd);
  pushSignal(signals, 'bidi_control', start, segmentEnd, 0.9);
  return segmentEnd;
}

/** Decodes a run of tag characters into the ASCII it spells, unless it is a flag emoji's subdivision tag. */
function processTagRun(input: string, start: number, builder: TextViewBuilder, signals: ObfuscationSignal[]): number {
  let end = start;
  while (end < input.length) {
    const cp = input.codePointAt(end)!;
    if (!isTag(cp)) break;
    end += 2;
  }
  const before = visibleNeighbor(input, start - 1, -1);
  if (before === BLACK_FLAG) return end;
  let hasLetter = false;
  builder.push(' ', start, start + 2);
  for (let position = start; position < end; position += 2) {
    const cp = input.codePointAt(position)!;
    if (cp >= 0xe0020 && cp <= 0xe007e) {
      const code = cp - 0xe0000;
      if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) hasLetter = true;
      builder.pushCode(code, position, position + 2);
    }
  }
  builder.push(' ', end - 2, end);
  if (hasLetter) pushSignal(signals, 'tag_payload', start, end, 1);
  return end;
}
