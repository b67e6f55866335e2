import { cleanUnicode } from './unicode-cleaner';
import { TextViewBuilder, toOriginalSpan, type Span, type TextView } from './text-view';

/**
 * Bounded decoding of payloads hidden in base64, hex, percent/HTML/backslash escapes. Decoding
 * goes two layers deep (base64 inside URL escapes, hex inside base64, ...) and stops at fixed
 * size caps so a crafted input cannot make the guardrail do unbounded work.
 */
export type LayerEncoding = 'base64' | 'hex' | 'escapes';

export interface DecodedLayer {
  /** Decoded, cleaned text; each unit maps to the original span of the encoded text. */
  view: TextView;
  encoding: LayerEncoding;
  depth: number;
  /** Original span of the encoded text a finding inside this layer is reported at. */
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

const BASE64_RUN = /[A-Za-z0-9+/_-]{16,}={0,2}/g;
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

function findSegments(parent: TextView, depth: number, budget: Budget, out: DecodedLayer[]): void {
  const text = parent.text;
  const consider = (from: number, to: number, encoding: 'base64' | 'hex', bytes: Uint8Array | null): void => {
    if (bytes === null) return;
    const decoded = asPrintableText(bytes);
    if (decoded === null || budget.decodedChars + decoded.length > DECODE_LIMITS.maxDecodedChars) return;
    budget.decodedChars += decoded.length;
    const span = toOriginalSpan(parent, from, to);
    const key = `${span.start}:${span.end}`;
    if (budget.seen.has(key)) return;
    budget.seen.add(key);
    const cleaned = cleanUnicode(decoded).view.text;
    const layer: DecodedLayer = { view: constantView(cleaned, span), encoding, depth, span };
    out.push(layer);
    if (depth < DECODE_LIMITS.maxDepth) expand(layer.view, depth + 1, budget, out);
  };

  // Matches are collected before decoding: decoding recurses into this function, and the
  // patterns are shared, so scanning and recursing at the same time would reset lastIndex.
  const segments: Array<{ from: number; to: number; encoding: 'base64' | 'hex'; run: string }> = [];
  if (/[0-9a-fA-F]{2}[ :,][0-9a-fA-F]{2}/.test(text)) {
    for (const spaced of text.matchAll(SPACED_HEX)) {
      segments.push({ from: spaced.index, to: spaced.index + spaced[0].length, encoding: 'hex', run: spaced[0] });
    }
  }
  for (const match of text.matchAll(BASE64_RUN)) {
    const run = match[0];
    if (run.length > DECODE_LIMITS.maxSegmentChars) continue;
    const hexBody = run.replace(/^0x/i, '');
    const encoding = /^[0-9a-fA-F]+$/.test(hexBody) && hexBody.length >= DECODE_LIMITS.minHexChars ? 'hex' : 'base64';
    segments.push({ from: match.index, to: match.index + run.length, encoding, run });
    if (segments.length >= DECODE_LIMITS.maxCandidates) break;
  }
  for (const segment of segments) {
    if (budget.candidates >= DECODE_LIMITS.maxCandidates) break;
    budget.candidates++;
    const bytes = segment.encoding === 'hex' ? decodeHex(segment.run) : decodeBase64(segment.run);
    consider(segment.from, segment.to, segment.encoding, bytes);
  }
}

function expand(view: TextView, depth: number, budget: Budget, out: DecodedLayer[]): void {
  // Segments visible without unescaping first, so a payload is decoded at its shallowest depth.
  findSegments(view, depth, budget, out);
  const unescaped = unescapeView(view);
  if (unescaped !== null) {
    const span = toOriginalSpan(view, 0, view.text.length);
    out.push({ view: unescaped, encoding: 'escapes', depth, span });
    if (depth < DECODE_LIMITS.maxDepth) findSegments(unescaped, depth + 1, budget, out);
  }
}

/** All decoded layers of a cleaned input, depth-first, within `DECODE_LIMITS`. */
export function decodeLayers(clean: TextView): DecodedLayer[] {
  const out: DecodedLayer[] = [];
  expand(clean, 1, { decodedChars: 0, candidates: 0, seen: new Set() }, out);
  return out;
}
