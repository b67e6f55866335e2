import { join } from 'node:path';
import { schemaDifferences } from '@gateway/testing';

describe('insights Prisma schema', () => {
  it('matches the database its SQL migrations build (tables, columns, types, nullability, keys)', async () => {
    await expect(schemaDifferences(join(__dirname, '../..'), 'schema_check_insights')).resolves.toEqual([]);
  });
});
