import { allApps, envSchema, readText } from './inventory';

// The root README lists every setting of every app; a setting added or removed without the
// README changing fails here.
const readme = readText('README.md');
const named = new Set([...readme.matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`/g)].map((match) => match[1]));
const PATTERNS = ['<APP>_HOST', '<APP>_PORT', '<APP>_OPS_PORT'];

describe('README.md settings', () => {
  it('names every setting of every app', async () => {
    const missing: string[] = [];
    for (const app of allApps()) {
      for (const name of (await envSchema(app)).keys()) if (!named.has(name)) missing.push(`${app}: ${name}`);
    }
    expect(missing).toEqual([]);
  });

  it('names no setting that no app has', async () => {
    const settings = new Set<string>();
    for (const app of allApps()) for (const name of (await envSchema(app)).keys()) settings.add(name);
    expect([...named].filter((name) => !settings.has(name) && !PATTERNS.includes(name))).toEqual([]);
  });
});
