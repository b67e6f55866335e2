import type { ExpectedEntity } from '../eval.types';

/** Small deterministic helpers for writing the corpus generator. */
export type Random = () => number;

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

export function digits(random: Random, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += String(Math.floor(random() * 10));
  return out;
}

export function letters(random: Random, count: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'): string {
  let out = '';
  for (let i = 0; i < count; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

/**
 * Entity markup used when writing cases by hand or by template: `[[type|value]]`. `parseMarked`
 * strips the markers and returns the text plus exact UTF-16 spans of the marked values.
 */
export function mark(type: string, value: string): string {
  return `[[${type}|${value}]]`;
}

const MARKER = /\[\[([a-z_]+)\|((?:(?!\]\]).)+)\]\]/gs;

export function parseMarked(marked: string): { text: string; entities: ExpectedEntity[] } {
  let text = '';
  let last = 0;
  const entities: ExpectedEntity[] = [];
  for (const match of marked.matchAll(MARKER)) {
    text += marked.slice(last, match.index);
    const start = text.length;
    text += match[2]!;
    entities.push({ type: match[1]!, start, end: text.length });
    last = match.index + match[0].length;
  }
  text += marked.slice(last);
  return { text, entities };
}
