import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeEnv, type ChartValues, type ComposeFile } from './deploy-checks';
import { allApps, CHART_DIR, envSchema, NOT_SERVICES, parseYaml, readText, serviceApps } from './inventory';

// deploy/README.md describes what cannot be run here; every app and setting it names must exist.
const readme = readText('deploy/README.md');
const compose = parseYaml(readText('docker-compose.yml'), 'docker-compose.yml') as ComposeFile;
const values = parseYaml(readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8'), 'values.yaml') as ChartValues;

/** Backticked spans, and the UPPER_CASE names inside them. */
const spans = [...readme.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]);
const upperNames = [...new Set(spans.flatMap((span) => [...span.matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g)].map((match) => match[0])))];

describe('deploy/README.md', () => {
  it('lists exactly the apps there are (services and the migrator) in its table', () => {
    const tableApps = [...readme.matchAll(/^\| `([a-z][a-z0-9-]*)` \|/gm)].map((match) => match[1]);
    expect(tableApps.sort()).toEqual([...serviceApps(), 'migrator'].sort());
    expect(allApps().filter((app) => !tableApps.includes(app)).sort()).toEqual(Object.keys(NOT_SERVICES).filter((app) => app !== 'migrator').sort());
  });

  it('names only settings an app has, keys of the chart Secret, or variables compose reads', async () => {
    const settings = new Set<string>();
    for (const app of [...serviceApps(), 'migrator']) for (const name of (await envSchema(app)).keys()) settings.add(name);
    const secretKeys = new Set<string>([
      values.global.internalTokenKey,
      ...Object.values(values.apps).flatMap((app) => [app.database?.secretKey ?? '', ...Object.values(app.secretEnv ?? {}).map((ref) => ref.key)]),
    ]);
    const composeVariables = new Set(
      Object.values(compose.services).flatMap((service) =>
        [...Object.values(composeEnv(service)), ...[service.command ?? []].flat()].flatMap((value) => [...value.matchAll(/\$\{([A-Z_][A-Z0-9_]*)/g)].map((match) => match[1])),
      ),
    );
    expect(upperNames.length).toBeGreaterThan(5);
    expect(upperNames.filter((name) => !settings.has(name) && !secretKeys.has(name) && !composeVariables.has(name))).toEqual([]);
  });

  it('documents every variable compose reads from the caller', () => {
    const composeText = readText('docker-compose.yml');
    const read = [...new Set([...composeText.matchAll(/\$\{([A-Z_][A-Z0-9_]*)/g)].map((match) => match[1]))];
    expect(read.filter((name) => !upperNames.includes(name))).toEqual([]);
  });

  it('names every key of the chart Secret that values.yaml references', () => {
    const keys = [values.global.internalTokenKey, ...Object.values(values.apps).flatMap((app) => [app.database?.secretKey, ...Object.values(app.secretEnv ?? {}).map((ref) => ref.key)])].filter(
      (key): key is string => Boolean(key),
    );
    expect(keys.filter((key) => !upperNames.includes(key))).toEqual([]);
  });
});
