import type { ObfuscationSignal } from './obfuscation-signal';
import { identityView, TextViewBuilder, type TextView } from './text-view';

/**
 * First normalization layer, used by every detector: drops invisible and bidi controls, decodes
 * Unicode tag characters (a known way to smuggle hidden instructions) and applies NFKC so
 * full-width or mathematical letters read as plain ones. Each output unit maps to the original.
 */
export interface CleanedText {
  view: TextView;
  signals: ObfuscationSignal[];
}

const ZERO_WIDTH = new Set([
  0x00ad, 0x034f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180e, 0x200b, 0x200c, 0x200d, 0x2060, 0x2061, 0x2062, 0x2063,
  0x2064, 0x3164, 0xfeff, 0xffa0,
]);
const JOINERS = new Set([0x200c, 0x200d]);
const BIDI_MARKS = new Set([0x200e, 0x200f, 0x061c]);
const COMBINING_MARK = /^\p{M}$/u;
const RIGHT_TO_LEFT_SCRIPT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
const BLACK_FLAG = 0x1f3f4;
/** More combining marks than this on one letter is "zalgo" text, not a real orthography. */
const MAX_NATURAL_MARKS = 4;
/** A run this long of invisible characters is steganography even between non-letters. */
const INVISIBLE_RUN_SIGNAL = 4;

function isBidiControl(cp: number): boolean {
  return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

function isTag(cp: number): boolean {
  return cp >= 0xe0000 && cp <= 0xe007f;
}

function isVariationSelector(cp: number): boolean {
  return (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
}

function isSpecial(cp: number): boolean {
  return ZERO_WIDTH.has(cp) || BIDI_MARKS.has(cp) || isBidiControl(cp) || isTag(cp) || isVariationSelector(cp);
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

export function cleanUnicode(input: string): CleanedText {
  if (!/[^\x00-\x7f]/.test(input)) return { view: identityView(input), signals: [] };

  const builder = new TextViewBuilder(input.length + 16);
  const signals: ObfuscationSignal[] = [];
  const source = identityView(input);
  let i = 0;
  let invisibleRunStart = -1;
  let invisibleRunCount = 0;

  const closeInvisibleRun = (end: number): void => {
    if (invisibleRunCount >= INVISIBLE_RUN_SIGNAL) {
      signals.push({ kind: 'invisible_characters', start: invisibleRunStart, end, confidence: 0.9 });
    }
    invisibleRunStart = -1;
    invisibleRunCount = 0;
  };

  while (i < input.length) {
    const unit = input.charCodeAt(i);
    if (unit < 0x80) {
      // ASCII run; its last char joins the following non-ASCII chunk so NFKC can compose
      // "e" + U+0301 into "é".
      let end = i + 1;
      while (end < input.length && input.charCodeAt(end) < 0x80) end++;
      if (end < input.length && end - i > 1 && !isSpecial(input.codePointAt(end)!)) end -= 1;
      if (end < input.length && end - i === 1 && !isSpecial(input.codePointAt(end)!)) {
        i = processChunk(input, i, builder, signals);
        closeInvisibleRun(i);
        continue;
      }
      builder.pushFromView(source, i, end);
      closeInvisibleRun(i);
      i = end;
      continue;
    }

    const cp = input.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;

    if (ZERO_WIDTH.has(cp)) {
      if (invisibleRunStart < 0) invisibleRunStart = i;
      invisibleRunCount++;
      const before = visibleNeighbor(input, i - 1, -1);
      const after = visibleNeighbor(input, i + width, 1);
      const insideLatinWord = isLatinWordChar(before) && isLatinWordChar(after);
      // ZWJ/ZWNJ are legitimate in emoji sequences and Indic/Arabic orthography.
      const legitimateJoiner = JOINERS.has(cp) && !insideLatinWord;
      const byteOrderMark = cp === 0xfeff && i === 0;
      if (insideLatinWord && !legitimateJoiner && !byteOrderMark) {
        signals.push({ kind: 'invisible_characters', start: i, end: i + width, confidence: 0.8 });
      }
      i += width;
      continue;
    }
    closeInvisibleRun(i);

    if (isBidiControl(cp) || BIDI_MARKS.has(cp)) {
      const windowText = input.slice(Math.max(0, i - 24), i + 24);
      const rightToLeftContext = RIGHT_TO_LEFT_SCRIPT.test(windowText);
      const before = visibleNeighbor(input, i - 1, -1);
      const after = visibleNeighbor(input, i + width, 1);
      const suspicious = isBidiControl(cp)
        ? !rightToLeftContext
        : isLatinWordChar(before) && isLatinWordChar(after) && !rightToLeftContext;
      if (suspicious) signals.push({ kind: 'bidi_control', start: i, end: i + width, confidence: 0.8 });
      i += width;
      continue;
    }

    if (isVariationSelector(cp)) {
      i += width;
      continue;
    }

    if (isTag(cp)) {
      i = processTagRun(input, i, builder, signals);
      continue;
    }

    i = processChunk(input, i, builder, signals);
  }
  closeInvisibleRun(input.length);
  return { view: builder.build(), signals };
}

/** Normalizes a run of ordinary non-ASCII text (plus a leading ASCII base letter, if any). */
function processChunk(input: string, start: number, builder: TextViewBuilder, signals: ObfuscationSignal[]): number {
  let end = start;
  // The leading unit may be ASCII (a base letter for following marks).
  if (input.charCodeAt(end) < 0x80) end += 1;
  while (end < input.length) {
    const unit = input.charCodeAt(end);
    if (unit < 0x80) break;
    const cp = input.codePointAt(end)!;
    if (isSpecial(cp)) break;
    end += cp > 0xffff ? 2 : 1;
    if (end - start >= 512) break;
  }
  const chunk = input.slice(start, end);
  const normalized = chunk.normalize('NFKC');
  if (normalized === chunk && !hasCombiningFlood(chunk)) {
    builder.pushFromView(identityView(input), start, end);
    return end;
  }
  // Per cluster (base + marks) so each output unit maps to the cluster that produced it.
  let position = start;
  while (position < end) {
    const clusterStart = position;
    const base = input.codePointAt(position)!;
    position += base > 0xffff ? 2 : 1;
    let marks = 0;
    while (position < end) {
      const cp = input.codePointAt(position)!;
      if (!COMBINING_MARK.test(String.fromCodePoint(cp))) break;
      marks++;
      position += cp > 0xffff ? 2 : 1;
    }
    const cluster = input.slice(clusterStart, position);
    if (marks > MAX_NATURAL_MARKS) {
      signals.push({ kind: 'combining_flood', start: clusterStart, end: position, confidence: 0.6 });
      // Zalgo marks carry no meaning; keep the base letter only.
      builder.push(String.fromCodePoint(base).normalize('NFKC'), clusterStart, position);
    } else {
      builder.push(cluster.normalize('NFKC'), clusterStart, position);
    }
  }
  return end;
}

const COMBINING_FLOOD = new RegExp(`\\p{M}{${MAX_NATURAL_MARKS + 1}}`, 'u');

function hasCombiningFlood(chunk: string): boolean {
  return COMBINING_FLOOD.test(chunk);
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
      const char = String.fromCharCode(cp - 0xe0000);
      if (/[A-Za-z]/.test(char)) hasLetter = true;
      builder.push(char, position, position + 2);
    }
  }
  builder.push(' ', end - 2, end);
  if (hasLetter) signals.push({ kind: 'tag_payload', start, end, confidence: 1 });
  return end;
}
