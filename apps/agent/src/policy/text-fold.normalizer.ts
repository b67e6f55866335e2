/**
 * Folding for blocked terms and topics, so trivial disguises do not pass the agent:
 *   - compatibility forms and accents (NFKD, combining marks dropped), case;
 *   - invisible characters (zero-width spaces and joiners, soft hyphens: Unicode format chars);
 *   - punctuation and spacing: every run of non-letters/digits is one separator;
 *   - spaced-out letters ("p r o j e c t" → "project"): three or more single-character words join;
 *   - leetspeak (0→o, 1→i or l, 3→e, 4→a, 5→s, 7→t, 8→b, @→a, $→s, !→i, |→l), as extra variants.
 * The folded forms are padded with a separator, so a term matches whole words only.
 */
const LEET: Readonly<Record<string, string>> = { '0': 'o', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '@': 'a', $: 's', '!': 'i', '|': 'l' };
const LEET_CHARS = /[0134578@$!|]/;

function baseFold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').replace(/\p{Cf}+/gu, '').toLowerCase();
}

function words(text: string): string {
  const tokens = text.split(/[^\p{L}\p{N}]+/u).filter((token) => token.length > 0);
  const joined: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length >= 3) joined.push(run.join(''));
    else joined.push(...run);
    run = [];
  };
  for (const token of tokens) {
    if ([...token].length === 1) run.push(token);
    else {
      flush();
      joined.push(token);
    }
  }
  flush();
  return ` ${joined.join(' ')} `;
}

function leet(text: string, one: 'i' | 'l'): string {
  return text.replace(/[0134578@$!|]/g, (char) => (char === '1' ? one : LEET[char]!));
}

/** The plain folded form of a term or topic phrase (`' project falcon '`), or '' when nothing is left. */
export function foldPhrase(phrase: string): string {
  const folded = words(baseFold(phrase));
  return folded.trim() === '' ? '' : folded;
}

/** The folded variants of a text that a folded phrase is searched in. */
export function foldVariants(text: string): string[] {
  const base = baseFold(text);
  const variants = [words(base)];
  if (LEET_CHARS.test(base)) variants.push(words(leet(base, 'i')), words(leet(base, 'l')));
  return variants;
}
