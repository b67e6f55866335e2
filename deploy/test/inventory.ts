import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { isSecretSetting } from '@gateway/config';

// What the deploy checks compare against: the apps in the repository and their env.ts schemas.
export const ROOT = join(__dirname, '../..');
export const CHART_DIR = join(ROOT, 'deploy/helm/gateway');

/** Apps under apps/ that are not deployed as long-running services, and why. Anything else is. */
export const NOT_SERVICES: Readonly<Record<string, string>> = {
  gateway: 'the embedded single-process launcher (npm start), not a production process',
  migrator: 'a one-shot: the Helm migrations Jobs and the compose migrate-<app> services run it',
  agent: "the private-network agent runs in the consumer's network, next to their applications, not with the gateway",
};

/** A test double: compose runs it, the chart has it off by default and without HPA/PDB. */
export const TEST_DOUBLES = ['mock-provider'];

export function allApps(): string[] {
  return readdirSync(join(ROOT, 'apps'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, 'apps', entry.name, 'project.json')))
    .map((entry) => entry.name)
    .sort();
}

export function serviceApps(): string[] {
  return allApps().filter((app) => !(app in NOT_SERVICES));
}

/** Data-owning apps: they carry SQL migrations (and so need a database and a migrations run). */
export function dataApps(): string[] {
  return allApps().filter((app) => existsSync(join(ROOT, 'apps', app, 'prisma/migrations')));
}

/** `provider-proxy` → `PROVIDER_PROXY`, the prefix of its _HOST/_PORT/_OPS_PORT/_ADDRESS settings. */
export function envPrefix(app: string): string {
  return app.toUpperCase().replace(/-/g, '_');
}

export interface EnvSetting {
  name: string;
  /** No default and not optional: the app does not start without it. */
  required: boolean;
  defaultValue: unknown;
  /** Marked with secret() in env.ts. */
  secret: boolean;
}

export type EnvSchema = Map<string, EnvSetting>;

const cache = new Map<string, EnvSchema>();

/** The settings of apps/<app>/src/env.ts, read from its zod schema (the one exported z.object). */
export async function envSchema(app: string): Promise<EnvSchema> {
  const cached = cache.get(app);
  if (cached) return cached;
  const file = join(ROOT, 'apps', app, 'src/env.ts');
  if (!existsSync(file)) throw new Error(`apps/${app}/src/env.ts is missing`);
  const module = (await import(file)) as Record<string, unknown>;
  const schemas = Object.values(module).filter((value): value is z.ZodObject => value instanceof z.ZodObject);
  if (schemas.length !== 1) throw new Error(`apps/${app}/src/env.ts exports ${schemas.length} z.object schemas; expected exactly one`);
  const settings: EnvSchema = new Map();
  for (const [name, field] of Object.entries(schemas[0].shape)) {
    const parsed = (field as z.ZodType).safeParse(undefined);
    settings.set(name, { name, required: !parsed.success, defaultValue: parsed.success ? parsed.data : undefined, secret: isSecretSetting(name) });
  }
  cache.set(app, settings);
  return settings;
}

/** The values a name can take in env.ts when it is an enum (e.g. the migrator's MIGRATE_APP). */
export async function envEnum(app: string, name: string): Promise<string[]> {
  const module = (await import(join(ROOT, 'apps', app, 'src/env.ts'))) as Record<string, unknown>;
  const schema = Object.values(module).find((value): value is z.ZodObject => value instanceof z.ZodObject);
  const field = schema?.shape[name];
  if (!(field instanceof z.ZodEnum)) throw new Error(`${app}: ${name} is not a z.enum`);
  return field.options.map(String);
}

const LOOPBACK = /(127\.0\.0\.1|localhost|\[::1\])/;

/**
 * Settings a deployment must set: required ones, and those whose default only works on a
 * developer machine (a loopback host or address: an app's own *_HOST binds there, a *_ADDRESS,
 * NATS_URL or REDIS_URL points there).
 */
export function mustBeSet(schema: EnvSchema): string[] {
  return [...schema.values()].filter((setting) => setting.required || (typeof setting.defaultValue === 'string' && LOOPBACK.test(setting.defaultValue))).map((setting) => setting.name);
}

export function readText(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

/** Parses YAML (merge keys on, duplicate keys an error) and fails with the parser's messages. */
export function parseYaml(text: string, label: string): unknown {
  const document = parseDocument(text, { merge: true });
  if (document.errors.length > 0) throw new Error(`${label}: ${document.errors.map((error) => error.message).join('; ')}`);
  return document.toJSON();
}
