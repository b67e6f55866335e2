/** Evidence that text was disguised; spans are offsets into the original input. */
export type ObfuscationKind =
  | 'invisible_characters'
  | 'bidi_control'
  | 'tag_payload'
  | 'combining_flood'
  | 'homoglyph'
  | 'leetspeak'
  | 'spaced_letters'
  | 'encoded_payload';

export interface ObfuscationSignal {
  kind: ObfuscationKind;
  start: number;
  end: number;
  confidence: number;
}

/** Joins signals of one kind that touch or nearly touch, so one disguised word is one signal. */
export function coalesceSignals(signals: readonly ObfuscationSignal[], maxGap = 3): ObfuscationSignal[] {
  const sorted = [...signals].sort((a, b) => (a.kind === b.kind ? a.start - b.start : a.kind < b.kind ? -1 : 1));
  const merged: ObfuscationSignal[] = [];
  for (const signal of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && last.kind === signal.kind && signal.start <= last.end + maxGap) {
      last.end = Math.max(last.end, signal.end);
      last.confidence = Math.max(last.confidence, signal.confidence);
    } else {
      merged.push({ ...signal });
    }
  }
  return merged;
}
