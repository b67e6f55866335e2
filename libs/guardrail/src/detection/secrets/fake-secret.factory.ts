import { ALPHABETS, SECRET_RULES, type SecretRule, type SecretSample } from './secret.rules';

/**
 * Builds syntactically valid but FAKE credentials from the rule table's sample shapes, for unit
 * tests, the evaluation corpus and the benchmark. Generated at run time so that no string with
 * a real provider's shape is committed to the repository (push protection, scanners).
 */
export interface FakeSecret {
  ruleId: string;
  /** Context line containing the secret. */
  text: string;
  secret: string;
  /** Offsets of the secret inside `text`. */
  start: number;
  end: number;
}

/** Deterministic PRNG (mulberry32) so tests and corpus runs are reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomFrom(alphabet: string, length: number, random: () => number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

export function renderSample(sample: SecretSample, random: () => number): { text: string; secret: string; start: number; end: number } {
  const secret = sample.secret.map((segment) => (typeof segment === 'string' ? segment : randomFrom(segment[0], segment[1], random))).join('');
  const before = sample.before ?? '';
  const text = `${before}${secret}${sample.after ?? ''}`;
  return { text, secret, start: before.length, end: before.length + secret.length };
}

export function fakeSecretFor(rule: SecretRule, seed: number): FakeSecret {
  return { ruleId: rule.id, ...renderSample(rule.sample, seededRandom(seed)) };
}

/** One fake per provider rule, plus the custom detectors' shapes. */
export function allFakeSecrets(seed = 1): FakeSecret[] {
  const fakes = SECRET_RULES.map((rule, index) => fakeSecretFor(rule, seed * 1000 + index));
  fakes.push(fakePrivateKey(seededRandom(seed * 7 + 3)));
  return fakes;
}

export function fakePrivateKey(random: () => number, kind = 'RSA'): FakeSecret {
  const lines: string[] = [];
  for (let i = 0; i < 12; i++) lines.push(randomFrom(ALPHABETS.base64, 64, random));
  const secret = `-----BEGIN ${kind} PRIVATE KEY-----\n${lines.join('\n')}\n-----END ${kind} PRIVATE KEY-----`;
  const before = 'key.pem:\n';
  return { ruleId: 'private-key', text: `${before}${secret}\n`, secret, start: before.length, end: before.length + secret.length };
}

/** A random password with every character class, as people are told to pick. */
export function fakePassword(random: () => number, length = 14): string {
  const classes = [ALPHABETS.alpha.slice(26), ALPHABETS.alpha.slice(0, 26), ALPHABETS.digits, '!#%&*?@^'];
  let out = '';
  for (let i = 0; i < length; i++) out += randomFrom(classes[i % classes.length]!, 1, random);
  return out;
}
