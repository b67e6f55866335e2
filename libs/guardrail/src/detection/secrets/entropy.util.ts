/** Shannon entropy in bits per character: random 62-symbol keys score ~5.9, English words ~2.5-3.5. */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  // Secrets are ASCII; count code units in a fixed table (other units share one bucket per value via the map).
  const ascii = new Uint32Array(128);
  let other: Map<number, number> | null = null;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 128) ascii[code]!++;
    else {
      other ??= new Map();
      other.set(code, (other.get(code) ?? 0) + 1);
    }
  }
  let entropy = 0;
  const add = (count: number): void => {
    const p = count / value.length;
    entropy -= p * Math.log2(p);
  };
  for (let code = 0; code < 128; code++) if (ascii[code]! > 0) add(ascii[code]!);
  if (other !== null) for (const count of other.values()) add(count);
  return entropy;
}

/** Number of character classes (lower, upper, digit, other) present. */
export function characterClasses(value: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((pattern) => pattern.test(value)).length;
}
