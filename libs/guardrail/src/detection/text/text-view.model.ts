/**
 * A derived text (cleaned, folded or decoded) that remembers, for every UTF-16 unit, which span
 * of the ORIGINAL input produced it. Every detector works on a view and reports through
 * `toOriginalSpan`, so offsets handed to callers always index the caller's string.
 */
export interface TextView {
  readonly text: string;
  /** Original start offset per unit; null when the view is the original text itself. */
  readonly starts: Int32Array | null;
  /** Original end offset (exclusive) per unit; null when the view is the original text. */
  readonly ends: Int32Array | null;
}

export interface Span {
  start: number;
  end: number;
}

export function identityView(text: string): TextView {
  return { text, starts: null, ends: null };
}

/** Maps a half-open span of `view.text` to the half-open span of the original input. */
export function toOriginalSpan(view: TextView, start: number, end: number): Span {
  if (view.starts === null || view.ends === null) return { start, end };
  const length = view.text.length;
  if (length === 0) return { start: 0, end: 0 };
  const first = Math.min(Math.max(start, 0), length - 1);
  const last = Math.min(Math.max(end - 1, first), length - 1);
  return { start: view.starts[first]!, end: view.ends[last]! };
}

/**
 * Builds a view unit by unit. Callers push text together with the original span it stands for;
 * when deriving from another view they pass spans already translated to the original input,
 * so maps compose at build time and lookups stay O(1). Units are kept as UTF-16 codes in typed
 * arrays: builders run over every character of 100 KB inputs, so no per-character strings.
 */
export class TextViewBuilder {
  private codes: Uint16Array;
  private length = 0;
  private starts: Int32Array;
  private ends: Int32Array;

  constructor(capacityHint: number) {
    const capacity = Math.max(16, capacityHint);
    this.codes = new Uint16Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
  }

  get size(): number {
    return this.length;
  }

  /** Appends one UTF-16 unit mapping to the original span [originalStart, originalEnd). */
  pushCode(code: number, originalStart: number, originalEnd: number): void {
    if (this.length >= this.codes.length) this.grow(this.length + 1);
    this.codes[this.length] = code;
    this.starts[this.length] = originalStart;
    this.ends[this.length] = originalEnd;
    this.length++;
  }

  /** Appends `text`; every unit of it maps to the original span [originalStart, originalEnd). */
  push(text: string, originalStart: number, originalEnd: number): void {
    const count = text.length;
    if (count === 0) return;
    if (this.length + count > this.codes.length) this.grow(this.length + count);
    for (let i = 0; i < count; i++) {
      this.codes[this.length] = text.charCodeAt(i);
      this.starts[this.length] = originalStart;
      this.ends[this.length] = originalEnd;
      this.length++;
    }
  }

  /** Appends a slice of a parent view unchanged, keeping its per-unit mapping. */
  pushFromView(parent: TextView, start: number, end: number): void {
    if (end <= start) return;
    const count = end - start;
    if (this.length + count > this.codes.length) this.grow(this.length + count);
    const text = parent.text;
    for (let i = 0; i < count; i++) this.codes[this.length + i] = text.charCodeAt(start + i);
    if (parent.starts === null || parent.ends === null) {
      for (let i = 0; i < count; i++) {
        this.starts[this.length + i] = start + i;
        this.ends[this.length + i] = start + i + 1;
      }
    } else {
      this.starts.set(parent.starts.subarray(start, end), this.length);
      this.ends.set(parent.ends.subarray(start, end), this.length);
    }
    this.length += count;
  }

  build(): TextView {
    return {
      text: UTF16.decode(this.codes.subarray(0, this.length)),
      starts: this.starts.subarray(0, this.length),
      ends: this.ends.subarray(0, this.length),
    };
  }

  private grow(capacity: number): void {
    let next = this.codes.length * 2;
    while (next < capacity) next *= 2;
    const codes = new Uint16Array(next);
    codes.set(this.codes.subarray(0, this.length));
    const starts = new Int32Array(next);
    starts.set(this.starts.subarray(0, this.length));
    const ends = new Int32Array(next);
    ends.set(this.ends.subarray(0, this.length));
    this.codes = codes;
    this.starts = starts;
    this.ends = ends;
  }
}

/** Lone surrogates must survive decoding, so no fatal mode and no BOM handling. */
const UTF16 = new TextDecoder('utf-16le', { ignoreBOM: true });

/** First view index whose original start is at or after `offset` (views are monotonic). */
export function viewIndexAtOriginal(view: TextView, offset: number): number {
  if (view.starts === null) return Math.min(Math.max(offset, 0), view.text.length);
  let low = 0;
  let high = view.starts.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (view.starts[middle]! < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}
