/**
 * PostgreSQL's deferred BEGIN (`deferBegin` of store/sql/driver-wrapper.ts): a transaction's BEGIN leaves with
 * its first statement, and a first statement that only reads goes in the same turn of the event loop (the pool's
 * client then writes both at once), so such a transaction costs one round trip less; a statement that may write
 * waits for the BEGIN's answer, so that it never runs outside its transaction; a transaction that runs no
 * statement sends nothing. The pool here is a stand-in that records what it is given, and in which turn.
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { wrapDialect } from '../../../src/store/sql/driver-wrapper.js';

interface Scratch {
  t: { id: number };
}

class MappedError extends Error {}

/** A Kysely over a recording pool; `fail(text)` makes the statement of that text fail. */
function recordingDb(fail: (text: string) => boolean = () => false) {
  const sent: Array<{ text: string; turn: number }> = [];
  let turn = 0;
  let open = false;
  const turnOf = () => {
    if (!open) {
      open = true;
      turn++;
      queueMicrotask(() => {
        open = false;
      });
    }
    return turn;
  };
  // A stream's cursor: one row, then none.
  class Cursor {
    private left = 1;
    constructor(readonly text: string) {}
    async read() {
      return this.left-- > 0 ? [{ id: 1 }] : [];
    }
    async close() {}
  }
  const client = {
    query: (query: string | Cursor) => {
      const text = typeof query === 'string' ? query : `cursor: ${query.text}`;
      sent.push({ text, turn: turnOf() });
      if (typeof query !== 'string') return query;
      return fail(text) ? Promise.reject(new Error(`failed: ${text}`)) : Promise.resolve({ command: 'SELECT', rowCount: 1, rows: [{ id: 1 }] });
    },
    release: () => {},
  };
  const pool = { connect: async () => client, end: async () => {} };
  const mapError = (error: unknown) => new MappedError((error as Error).message);
  const db = new Kysely<Scratch>({ dialect: wrapDialect(new PostgresDialect({ pool: pool as never, cursor: Cursor as never }), { mapError, deferBegin: true }) });
  return { db, sent };
}

const select = (db: Kysely<Scratch>) => db.selectFrom('t').select('id').execute();

describe('deferred BEGIN', () => {
  it('leaves with the first statement, in the same turn; later statements and the COMMIT go as before', async () => {
    const { db, sent } = recordingDb();
    await db.transaction().execute(async (trx) => {
      expect(sent).toEqual([]);
      await select(trx);
      await sql`update t set id = 2`.execute(trx);
    });
    expect(sent.map((s) => s.text)).toEqual(['begin', 'select "id" from "t"', 'update t set id = 2', 'commit']);
    expect(sent[0]!.turn).toBe(sent[1]!.turn);
    expect(new Set(sent.map((s) => s.turn)).size).toBe(3);
  });

  it('a transaction that runs no statement sends nothing: no BEGIN, no COMMIT', async () => {
    const { db, sent } = recordingDb();
    expect(await db.transaction().execute(async () => 'done')).toBe('done');
    expect(sent).toEqual([]);
    // The connection is usable again, and the next transaction begins as the first did.
    await db.transaction().execute((trx) => select(trx));
    expect(sent.map((s) => s.text)).toEqual(['begin', 'select "id" from "t"', 'commit']);
  });

  it('a callback that fails before any statement sends nothing, and its error passes through', async () => {
    const { db, sent } = recordingDb();
    await expect(
      db.transaction().execute(async () => {
        throw new Error('callback');
      }),
    ).rejects.toThrow('callback');
    expect(sent).toEqual([]);
  });

  it('a failed first statement rolls the transaction back', async () => {
    const { db, sent } = recordingDb((text) => text.startsWith('select'));
    await expect(db.transaction().execute((trx) => select(trx))).rejects.toBeInstanceOf(MappedError);
    expect(sent.map((s) => s.text)).toEqual(['begin', 'select "id" from "t"', 'rollback']);
  });

  it('a failed BEGIN fails the statement with the mapped error of the BEGIN', async () => {
    const { db } = recordingDb((text) => text === 'begin');
    await expect(db.transaction().execute((trx) => select(trx))).rejects.toThrow(new MappedError('failed: begin'));
  });

  it('statements given together (a pipeline) all leave in the BEGIN\'s turn', async () => {
    const { db, sent } = recordingDb();
    await db.transaction().execute((trx) =>
      trx.getExecutor().provideConnection((connection) =>
        Promise.all([connection.executeQuery(sql`select 1`.compile(trx)), connection.executeQuery(sql`select 2`.compile(trx))]),
      ),
    );
    expect(sent.map((s) => s.text)).toEqual(['begin', 'select 1', 'select 2', 'commit']);
    expect(new Set(sent.slice(0, 3).map((s) => s.turn)).size).toBe(1);
  });

  it('a first statement that may write waits for the BEGIN\'s answer', async () => {
    const { db, sent } = recordingDb();
    await db.transaction().execute((trx) => sql`update t set id = 2`.execute(trx));
    expect(sent.map((s) => s.text)).toEqual(['begin', 'update t set id = 2', 'commit']);
    expect(sent[1]!.turn).toBeGreaterThan(sent[0]!.turn);
    // A SELECT with a CTE may write on PostgreSQL: it waits too.
    sent.length = 0;
    await db.transaction().execute((trx) => trx.with('x', (q) => q.selectFrom('t').select('id')).selectFrom('x').select('id').execute());
    expect(sent.map((s) => s.text)).toEqual(['begin', 'with "x" as (select "id" from "t") select "id" from "x"', 'commit']);
    expect(sent[1]!.turn).toBeGreaterThan(sent[0]!.turn);
  });

  it('a failed BEGIN: no statement that may write is sent', async () => {
    const { db, sent } = recordingDb((text) => text === 'begin');
    await expect(db.transaction().execute((trx) => sql`update t set id = 2`.execute(trx))).rejects.toThrow(new MappedError('failed: begin'));
    expect(sent.map((s) => s.text)).not.toContain('update t set id = 2');
  });

  it('in a pipeline, the reads ahead of the first statement that may write go with the BEGIN; that one and all after it wait, in order', async () => {
    const { db, sent } = recordingDb();
    const statements = [sql`select 1`, sql`savepoint p`, sql`select 2`];
    await db.transaction().execute((trx) =>
      trx.getExecutor().provideConnection((connection) => Promise.all(statements.map((s) => connection.executeQuery(s.compile(trx))))),
    );
    expect(sent.map((s) => s.text)).toEqual(['begin', 'select 1', 'savepoint p', 'select 2', 'commit']);
    expect(sent[1]!.turn).toBe(sent[0]!.turn);
    expect(sent[2]!.turn).toBeGreaterThan(sent[0]!.turn);
  });

  it('a pipeline whose BEGIN fails sends none of its statements that may write, nor any after them', async () => {
    const { db, sent } = recordingDb((text) => text === 'begin');
    const statements = [sql`select 1`, sql`savepoint p`, sql`insert into t values (3)`, sql`select 2`];
    await expect(
      db.transaction().execute((trx) =>
        trx.getExecutor().provideConnection((connection) => Promise.all(statements.map((s) => connection.executeQuery(s.compile(trx))))),
      ),
    ).rejects.toThrow(new MappedError('failed: begin'));
    expect(sent.map((s) => s.text).filter((t) => t !== 'rollback')).toEqual(['begin', 'select 1']);
  });

  it('a stream starts only once the BEGIN has answered, and not at all if it failed', async () => {
    const { db, sent } = recordingDb();
    await db.transaction().execute(async (trx) => {
      const rows = [];
      for await (const row of trx.selectFrom('t').select('id').stream()) rows.push(row);
      expect(rows).toEqual([{ id: 1 }]);
    });
    expect(sent.map((s) => s.text)).toEqual(['begin', 'cursor: select "id" from "t"', 'commit']);
    expect(sent[1]!.turn).toBeGreaterThan(sent[0]!.turn);
    const failing = recordingDb((text) => text === 'begin');
    await expect(
      failing.db.transaction().execute(async (trx) => {
        for await (const row of trx.selectFrom('t').select('id').stream()) void row;
      }),
    ).rejects.toThrow(new MappedError('failed: begin'));
    expect(failing.sent.map((s) => s.text).filter((t) => t !== 'rollback')).toEqual(['begin']);
  });

  it('a transaction with settings begins at once, as Kysely begins it', async () => {
    const { db, sent } = recordingDb();
    await db
      .transaction()
      .setIsolationLevel('serializable')
      .execute(async (trx) => {
        expect(sent.map((s) => s.text)).toEqual(['start transaction isolation level serializable']);
        await select(trx);
      });
    expect(sent.map((s) => s.text)).toEqual(['start transaction isolation level serializable', 'select "id" from "t"', 'commit']);
  });

  it('statements outside a transaction are sent alone, without a BEGIN', async () => {
    const { db, sent } = recordingDb();
    await select(db);
    expect(sent.map((s) => s.text)).toEqual(['select "id" from "t"']);
  });
});
