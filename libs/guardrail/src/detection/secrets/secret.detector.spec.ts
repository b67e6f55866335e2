import { identityView } from '../text/text-view.model';
import { allFakeSecrets, fakePassword, fakePrivateKey, seededRandom } from './fake-secret.factory';
import { SECRET_RULES } from './secret.rules';
import { detectSecrets } from './secret.detector';

const detect = (text: string) => detectSecrets(identityView(text));

describe('secret rule table', () => {
  it('covers at least 40 providers with bounded, keyword-gated rules', () => {
    expect(new Set(SECRET_RULES.map((rule) => rule.provider)).size).toBeGreaterThanOrEqual(40);
    for (const rule of SECRET_RULES) {
      // Every quantifier bounded: no bare "+" or "*" repeat and no open-ended "{n,}".
      expect(rule.pattern.source).not.toMatch(/(?<!\\)[+*](?![^[]*\])|\{\d+,\}/);
      expect(rule.keywords.every((keyword) => keyword === keyword.toLowerCase())).toBe(true);
    }
  });
});

describe('detectSecrets', () => {
  it.each(allFakeSecrets(3).map((fake) => [fake.ruleId, fake] as const))('detects a fake %s at its exact span', (ruleId, fake) => {
    const found = detect(fake.text);
    expect(found.map((match) => match.ruleId)).toContain(`secret.${ruleId}`);
    const match = found.find((candidate) => candidate.ruleId === `secret.${ruleId}`)!;
    expect(fake.text.slice(match.start, match.end)).toBe(fake.secret);
  });

  it('finds passwords in assignments, config formats and sentences', () => {
    const password = fakePassword(seededRandom(9));
    for (const text of [
      `DB_PASSWORD=${password}`,
      `{"username": "svc", "password": "${password}"}`,
      `<add key="SmtpPassword" value="${password}" />`,
      `the wifi password is ${password} if you need it`,
      `Das Passwort für den Server lautet: ${password}`,
    ]) {
      const found = detect(text);
      expect(found).toHaveLength(1);
      expect(text.slice(found[0]!.start, found[0]!.end)).toBe(password);
    }
  });

  it('finds a truncated private key block', () => {
    const key = fakePrivateKey(seededRandom(4)).secret.split('\n').slice(0, 5).join('\n');
    expect(detect(`pasted: ${key}`).map((match) => match.ruleId)).toEqual(['secret.private-key']);
  });

  it('ignores placeholders, references, UUIDs, hashes and documentation examples', () => {
    for (const text of [
      'OPENAI_API_KEY=your-api-key-here',
      'password: ********',
      'token = "<insert token here>"',
      'db_password = os.environ["DB_PASSWORD"]',
      'password = user_password',
      'The password is required and must be at least 12 characters long.',
      'api_key: ${API_KEY}',
      'session_id = "3fa85f64-5717-4562-b3fc-2c963f66afa6"',
      'commit_hash = "7b3f1e9c2a4d6b8e0f1a3c5e7d9b2f4a6c8e0d1b"',
      'password_hash = "$2b$12$KIXQJ8wZQ0y6yQ3x6b8n1uJZQk0Yx0f3m8m4sQy0h6x9Zc0m6m1a2"',
      'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE',
      'DATABASE_URL=postgres://user:password@localhost:5432/mydb',
      'The -----BEGIN PRIVATE KEY----- header marks a PKCS#8 key.',
    ]) {
      expect(detect(text)).toEqual([]);
    }
  });

  it('reports offsets only, never the secret value', () => {
    const [fake] = allFakeSecrets(5);
    const found = detect(fake!.text);
    expect(JSON.stringify(found)).not.toContain(fake!.secret);
  });
});
