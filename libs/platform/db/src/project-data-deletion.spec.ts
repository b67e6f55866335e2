import { lockProject, ProjectDataDeletion, recordEventUnlessProjectDeleted, type ProjectDataDb } from './project-data-deletion';
import type { RawSqlClient } from './prisma-outbox';

/** Records the statements; DELETEs report the next figure from `rows` (per table, in order). */
function fakeTx(rows: Record<string, number[]> = {}, inserted = 1): RawSqlClient & { calls: { sql: string; values: unknown[] }[] } {
  const calls: { sql: string; values: unknown[] }[] = [];
  return {
    calls,
    async $executeRawUnsafe(sql: string, ...values: unknown[]) {
      calls.push({ sql: sql.replace(/\s+/g, ' ').trim(), values });
      const table = /^DELETE FROM (\S+)/.exec(sql)?.[1];
      if (table) return rows[table]?.shift() ?? 0;
      return sql.startsWith('INSERT') ? inserted : 0;
    },
    async $queryRawUnsafe<T>() {
      return [] as T;
    },
  };
}

function fakeDb(tx: RawSqlClient): ProjectDataDb & { timeouts: number[] } {
  const timeouts: number[] = [];
  return {
    timeouts,
    $transaction: (fn, options) => {
      timeouts.push(options.timeout);
      return fn(tx);
    },
  };
}

describe('project data deletion', () => {
  it('takes the locks in order, marks the project deleted, then empties each table in batches', async () => {
    const tx = fakeTx({ '"s"."a"': [2, 2, 1], '"s"."b"': [0] });
    const db = fakeDb(tx);
    const deletion = new ProjectDataDeletion(db, {
      tables: { a: '"s"."a"', b: '"s"."b"', deletedProjects: '"s"."deleted_projects"' },
      dataTables: ['a', 'b'],
      locks: { before: ['refresh'], events: 'events' },
      batchSize: 2,
    });

    await expect(deletion.execute(7, new Date('2024-05-01T00:00:00Z'))).resolves.toEqual({ a: 5, b: 0 });

    expect(db.timeouts).toEqual([110_000]);
    const sql = tx.calls.map((c) => c.sql);
    expect(sql[0]).toBe(`SELECT pg_advisory_xact_lock(hashtext('refresh'), ($1::bigint % 2147483647)::int)`);
    expect(sql[1]).toBe(`SELECT pg_advisory_xact_lock(hashtext('events'), ($1::bigint % 2147483647)::int)`);
    expect(sql[2]).toMatch(/^INSERT INTO "s"."deleted_projects" \(project_id, deleted_at\)/);
    expect(tx.calls[2]!.values).toEqual([7, '2024-05-01T00:00:00.000Z']);
    expect(sql.slice(3).map((s) => /^DELETE FROM (\S+)/.exec(s)?.[1])).toEqual(['"s"."a"', '"s"."a"', '"s"."a"', '"s"."b"']);
    expect(tx.calls.slice(3).every((c) => c.values[0] === 7 && c.values[1] === 2)).toBe(true);
  });

  it('defaults to batches of 5000', async () => {
    const tx = fakeTx({ t: [5_000, 4_999] });
    const deletion = new ProjectDataDeletion(fakeDb(tx), { tables: { t: 't', deletedProjects: 'd' }, dataTables: ['t'], locks: { events: 'e' } });
    await expect(deletion.execute(1, new Date())).resolves.toEqual({ t: 9_999 });
    expect(tx.calls.filter((c) => c.sql.startsWith('SELECT'))).toHaveLength(1);
  });

  it('checks an event against the deletion, back by the grace, under the shared events lock', async () => {
    const tx = fakeTx({}, 0);
    const applied = await recordEventUnlessProjectDeleted(
      tx,
      { tables: { processedEvents: 'p', deletedProjects: 'd' }, eventsLock: 'events', graceMs: 60_000 },
      { eventId: 'e1', subject: 'step.recorded', projectId: 3, occurredAt: new Date('2024-05-01T00:01:00Z') },
    );
    expect(applied).toBe(false);
    expect(tx.calls[0]!.sql).toBe(`SELECT pg_advisory_xact_lock_shared(hashtext('events'), ($1::bigint % 2147483647)::int)`);
    expect(tx.calls[1]!.values).toEqual(['e1', 'step.recorded', 3, '2024-05-01T00:00:00.000Z']);
  });

  it('refuses a lock name that is not a plain word', async () => {
    await expect(lockProject(fakeTx(), "x'); DROP TABLE t; --", 1, 'shared')).rejects.toThrow('invalid lock name');
  });
});
