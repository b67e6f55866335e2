import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createLedgerDatabase } from '../../src/database';

/** A PGlite socket server in a child process (PGlite loads itself by dynamic import, which jest's VM refuses). */
const SERVER = `
const { PGlite } = require('@electric-sql/pglite');
const { PGLiteSocketServer } = require('@electric-sql/pglite-socket');
(async () => {
  const server = new PGLiteSocketServer({ db: await PGlite.create(), port: 0, host: '127.0.0.1', maxConnections: 2 });
  await server.start();
  process.stdout.write(server.port + '\\n');
})();
`;

/**
 * The embedded default runs the ledger on PGlite, one session behind a socket server: prepared
 * statements outlive the connection that prepared them, so a new connection must not meet them.
 */
describe('ledger pool on PGlite (the embedded default)', () => {
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    child = spawn(process.execPath, ['-e', SERVER], { cwd: __dirname, stdio: ['ignore', 'pipe', 'inherit'] });
    const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
    url = `postgresql://postgres@127.0.0.1:${Number(chunk.toString().trim())}/postgres`;
  }, 60_000);
  afterAll(() => {
    child.kill();
  });

  it('prepares its statements again on a new connection to the same session', async () => {
    const errors: Error[] = [];
    const { sql, close } = createLedgerDatabase({ url, schema: 'public', poolMax: 1, onPoolError: (error) => errors.push(error) });
    const pool = sql.pool;
    try {
      const statement = { name: 'ledger_pool_test', text: 'SELECT $1::int + 1 AS n' };
      expect(await sql.rows(statement, [1])).toEqual([{ n: 2 }]);
      // The pool drops that connection (as after an idle timeout) and opens another one.
      const client = await pool.connect();
      client.release(true);
      expect(await sql.rows(statement, [2])).toEqual([{ n: 3 }]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
