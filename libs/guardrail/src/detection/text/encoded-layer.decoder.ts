import { cleanUnicode } from './unicode.normalizer';
import { TextViewBuilder, toOriginalSpan, type Span, type TextView } from './text-view.model';

/**
 * Bounded decoding of payloads hidden in base64, hex, percent/HTML/backslash escapes. Decoding
 * goes two layers deep (base64 inside URL escapes, hex inside base64, ...) and stops at fixed
 * size caps so a crafted input cannot make the guardrail do unbounded work.
 */
export interface DecodedInput {
  /** The whole input with escapes decoded in place (exact per-character mapping), or null when it has none. */
  unescaped: TextView | null;
  /**
   * Payloads decoded from base64 / hex runs, at any depth, one per line; every unit maps to the
   * whole encoded run, so a finding inside a payload is reported at the span of the encoded
   * text. Null when nothing decoded to text.
   */
  payloads: TextView | null;
}

interface Payload {
  text: string;
  span: Span;
}

export const DECODE_LIMITS = {
  maxDepth: 2,
  /** Encoded segments longer than this are not decoded (UTF-16 units). */
  maxSegmentChars: 16_384,
  /** Total decoded text across all layers (UTF-16 units). */
  maxDecodedChars: 65_536,
  /** Candidate segments examined per check, whether or not they decode to text. */
  maxCandidates: 256,
  minBase64Chars: 16,
  minHexChars: 16,
} as const;

interface Budget {
  decodedChars: number;
  candidates: number;
  /** Original spans already decoded, so the same payload seen through two layers is decoded once. */
  seen: Set<string>;
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: ' ', sol: '/', bsol: '\\', vert: '|', colon: ':',
  lpar: '(', rpar: ')', lsqb: '[', rsqb: ']', lcub: '{', rcub: '}', num: '#', excl: '!', equals: '=',
};

const ESCAPE = /%[0-9a-fA-F]{2}|&#[0-9]{1,7};|&#[xX][0-9a-fA-F]{1,6};|&[a-zA-Z]{2,6};|\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\u\{[0-9a-fA-F]{1,6}\}/g;

/**
 * Replaces escapes in place, keeping the mapping of every decoded character to its escape.
 * Returns null when the text has no escapes, so callers skip a redundant pass.
 */
export function unescapeView(source: TextView): TextView | null {
  const text = source.text;
  if (!/[%&\\]/.test(text)) return null;
  const builder = new TextViewBuilder(text.length);
  let last = 0;
  let decodedAny = false;
  ESCAPE.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = ESCAPE.exec(text)) !== null) {
    const token = match[0];
    const at = match.index;
    // Percent escapes form UTF-8 byte sequences; decode a whole run at once.
    if (token[0] === '%') {
      let end = at;
      const bytes: number[] = [];
      while (end + 2 < text.length + 1 && text[end] === '%' && /^[0-9a-fA-F]{2}$/.test(text.slice(end + 1, end + 3))) {
        bytes.push(parseInt(text.slice(end + 1, end + 3), 16));
        end += 3;
      }
      builder.pushFromView(source, last, at);
      const decoded = decodeUtf8Lenient(bytes);
      pushSpread(builder, source, decoded, at, end);
      last = end;
      ESCAPE.lastIndex = end;
      decodedAny = true;
      continue;
    }
    const decoded = decodeEscapeToken(token);
    if (decoded === null) continue;
    builder.pushFromView(source, last, at);
    const span = toOriginalSpan(source, at, at + token.length);
    builder.push(decoded, span.start, span.end);
    last = at + token.length;
    decodedAny = true;
  }
  if (!decodedAny) return null;
  builder.pushFromView(source, last, text.length);
  return builder.build();
}

/** Maps decoded text over the escapes it came from, byte-proportionally, so spans stay tight. */
function pushSpread(builder: TextViewBuilder, source: TextView, decoded: string, from: number, to: number): void {
  if (decoded.length === 0) return;
  const escapes = (to - from) / 3;
  const perChar = Math.max(1, Math.floor(escapes / decoded.length));
  for (let k = 0; k < decoded.length; k++) {
    const first = Math.min(escapes - 1, k * perChar);
    const lastEscape = k === decoded.length - 1 ? escapes - 1 : Math.min(escapes - 1, (k + 1) * perChar - 1);
    const span = toOriginalSpan(source, from + first * 3, from + lastEscape * 3 + 3);
    builder.push(decoded[k]!, span.start, span.end);
  }
}

function decodeEscapeToken(token: string): string | null {
  let codePoint: number;
  if (token.startsWith('&#x') || token.startsWith('&#X')) codePoint = parseInt(token.slice(3, -1), 16);
  else if (token.startsWith('&#')) codePoint = parseInt(token.slice(2, -1), 10);
  else if (token[0] === '&') return NAMED_ENTITIES[token.slice(1, -1).toLowerCase()] ?? null;
  else if (token.startsWith('\\x')) codePoint = parseInt(token.slice(2), 16);
  else if (token.startsWith('\\u{')) codePoint = parseInt(token.slice(3, -1), 16);
  else codePoint = parseInt(token.slice(2), 16);
  if (!Number.isFinite(codePoint) || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return null;
  return String.fromCodePoint(codePoint);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8Lenient(bytes: number[]): string {
  try {
    return utf8.decode(Uint8Array.from(bytes));
  } catch {
    return Buffer.from(bytes).toString('latin1');
  }
}

/** Decoded bytes count as hidden text only when they are valid UTF-8 and mostly printable. */
function asPrintableText(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return null;
  }
  if (text.length < 4) return null;
  let printable = 0;
  let letters = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 9 || code === 10 || code === 13 || (code >= 0x20 && code !== 0x7f && code !== 0xfffd)) printable++;
    if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code > 0xbf) letters++;
  }
  if (printable / text.length < 0.95 || letters < 3 || letters / text.length < 0.3) return null;
  return text;
}

/** base64 and base64url alphabet as a table (no branch mispredictions on random text). */
const BASE64_CODES = (() => {
  const table = new Uint8Array(0x80);
  for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-') table[char.charCodeAt(0)] = 1;
  return table;
})();

function isBase64Code(code: number): boolean {
  return code < 0x80 && BASE64_CODES[code] === 1;
}

/** Maximal runs of the base64 / base64url alphabet (plus padding) of at least minBase64Chars, in one pass. */
function* base64Runs(text: string): Generator<[number, number]> {
  let i = 0;
  while (i < text.length) {
    if (!isBase64Code(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && isBase64Code(text.charCodeAt(i))) i++;
    let end = i;
    if (end - start < DECODE_LIMITS.minBase64Chars) continue;
    while (end < text.length && end - i < 2 && text.charCodeAt(end) === 0x3d) end++;
    yield [start, end];
    i = end;
  }
}
const SPACED_HEX = /(?<![0-9a-fA-F])(?:[0-9a-fA-F]{2}[ :,]){7,2048}[0-9a-fA-F]{2}(?![0-9a-fA-F])/g;

function decodeBase64(run: string): Uint8Array | null {
  const body = run.replace(/=+$/, '');
  if (body.length % 4 === 1) return null;
  const urlSafe = /[-_]/.test(body);
  if (urlSafe && /[+/]/.test(body)) return null;
  // Ordinary long words and identifiers are valid base64 alphabet; real payloads mix cases and digits.
  if (!/[0-9]/.test(body) && !(/[a-z]/.test(body) && /[A-Z]/.test(body))) return null;
  if (/^[0-9a-fA-F]+$/.test(body)) return null;
  return Uint8Array.from(Buffer.from(body, urlSafe ? 'base64url' : 'base64'));
}

function decodeHex(run: string): Uint8Array | null {
  const digits = run.replace(/^0x/i, '').replace(/[ :,]/g, '');
  if (digits.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(digits)) return null;
  return Uint8Array.from(Buffer.from(digits, 'hex'));
}

function constantView(text: string, span: Span): TextView {
  const starts = new Int32Array(text.length).fill(span.start);
  const ends = new Int32Array(text.length).fill(span.end);
  return { text, starts, ends };
}

function findSegments(parent: TextView, depth: number, budget: Budget, out: Payload[]): void {
  const text = parent.text;
  const segments: Array<{ from: number; to: number; encoding: 'base64' | 'hex'; run: string }> = [];
  if (/[0-9a-fA-F]{2}[ :,][0-9a-fA-F]{2}/.test(text)) {
    for (const spaced of text.matchAll(SPACED_HEX)) {
      segments.push({ from: spaced.index, to: spaced.index + spaced[0].length, encoding: 'hex', run: spaced[0] });
    }
  }
  for (const [from, to] of base64Runs(text)) {
    if (to - from > DECODE_LIMITS.maxSegmentChars) continue;
    const run = text.slice(from, to);
    const hexBody = run.replace(/^0x/i, '');
    const encoding = /^[0-9a-fA-F]+$/.test(hexBody) && hexBody.length >= DECODE_LIMITS.minHexChars ? 'hex' : 'base64';
    segments.push({ from, to, encoding, run });
    if (segments.length >= DECODE_LIMITS.maxCandidates) break;
  }
  for (const segment of segments) {
    if (budget.candidates >= DECODE_LIMITS.maxCandidates) break;
    budget.candidates++;
    const bytes = segment.encoding === 'hex' ? decodeHex(segment.run) : decodeBase64(segment.run);
    if (bytes === null) continue;
    const decoded = asPrintableText(bytes);
    if (decoded === null || budget.decodedChars + decoded.length > DECODE_LIMITS.maxDecodedChars) continue;
    const span = toOriginalSpan(parent, segment.from, segment.to);
    // Nested payloads share their parent's span, so depth is part of the key.
    const key = `${span.start}:${span.end}:${depth}`;
    if (budget.seen.has(key)) continue;
    budget.seen.add(key);
    budget.decodedChars += decoded.length;
    // The payload may itself be escaped or encoded again (one more level at most).
    const cleaned = constantView(cleanUnicode(decoded).view.text, span);
    const unescaped = unescapeView(cleaned) ?? cleaned;
    out.push({ text: unescaped.text, span });
    if (depth < DECODE_LIMITS.maxDepth) findSegments(unescaped, depth + 1, budget, out);
  }
}

/**
 * Decodes what the input hides: escapes in place (first layer), then base64/hex runs found in
 * the unescaped text, and runs inside those (second layer), within `DECODE_LIMITS`.
 */
export function decodeInput(clean: TextView): DecodedInput {
  const unescaped = unescapeView(clean);
  const payloads: Payload[] = [];
  findSegments(unescaped ?? clean, 1, { decodedChars: 0, candidates: 0, seen: new Set() }, payloads);
  if (payloads.length === 0) return { unescaped, payloads: null };
  const builder = new TextViewBuilder(payloads.reduce((sum, payload) => sum + payload.text.length + 1, 0));
  for (const payload of payloads) {
    builder.push(payload.text, payload.span.start, payload.span.end);
    builder.push('\n', payload.span.end, payload.span.end);
  }
  return { unescaped, payloads: builder.build() };
}
