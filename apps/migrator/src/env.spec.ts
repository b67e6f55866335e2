import { ConfigError, loadEnv } from '@gateway/config';
import { MIGRATABLE_APPS, migratorEnvSchema } from './env';

const valid = { MIGRATE_APP: 'analytics', DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/gateway_analytics' };

describe('migrator env', () => {
  it('accepts every data-owning app and defaults the schema to public', () => {
    for (const app of MIGRATABLE_APPS) {
      expect(loadEnv(migratorEnvSchema, { ...valid, MIGRATE_APP: app })).toMatchObject({ MIGRATE_APP: app, DATABASE_SCHEMA: 'public' });
    }
  });

  it.each([
    [{ ...valid, MIGRATE_APP: 'edge' }, 'MIGRATE_APP'],
    [{ ...valid, MIGRATE_APP: undefined }, 'MIGRATE_APP'],
    [{ ...valid, DATABASE_URL: '' }, 'DATABASE_URL'],
    [{ ...valid, DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
    [{ ...valid, DATABASE_SCHEMA: 'public; drop table x' }, 'DATABASE_SCHEMA'],
  ])('rejects %j naming %s', (source, variable) => {
    expect(() => loadEnv(migratorEnvSchema, source)).toThrow(ConfigError);
    expect(() => loadEnv(migratorEnvSchema, source)).toThrow(new RegExp(`^Invalid configuration:\\n  ${variable}:`));
  });
});
