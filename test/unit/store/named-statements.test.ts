/**
 * The pg pool as Kysely sees it (store/postgres/named-statements.ts), on a scripted pg client: data statements go
 * by name, others unnamed, and statements given to one client in one turn leave in one write to its socket (the
 * socket is corked from the first until the turn's synchronous code is done).
 */
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { NamedStatements } from '../../../src/store/postgres/named-statements.js';

function scriptedPool() {
  const log: string[] = [];
  let corks = 0;
  const stream = {
    cork: () => {
      corks++;
      log.push('cork');
    },
    uncork: () => {
      corks--;
      log.push('uncork');
    },
  };
  const client = {
    connection: { stream },
    query: (config: string | { name: string; text: string }) => {
      log.push(`${typeof config === 'string' ? 'unnamed' : 'named'} ${typeof config === 'string' ? config : config.text} (corked: ${corks > 0})`);
      return Promise.resolve({ command: 'SELECT', rowCount: 0, rows: [] });
    },
    release: () => log.push('release'),
  };
  const pool = { connect: async () => client, end: async () => {} } as unknown as pg.Pool;
  return { pool: new NamedStatements().pool(pool), log };
}

describe('NamedStatements', () => {
  it('sends the statements of one turn corked, and uncorks once the turn is done', async () => {
    const { pool, log } = scriptedPool();
    const client = await pool.connect();
    const sent = [client.query('SELECT pg_advisory_xact_lock(1)', []), client.query('SAVEPOINT p', []), client.query('select 2 where $1', [true])];
    expect(log).toEqual(['cork', 'named SELECT pg_advisory_xact_lock(1) (corked: true)', 'unnamed SAVEPOINT p (corked: true)', 'named select 2 where $1 (corked: true)']);
    await Promise.all(sent);
    expect(log.at(-1)).toBe('uncork');
    // A later turn corks again, once.
    await client.query('COMMIT', []);
    expect(log.slice(4)).toEqual(['uncork', 'cork', 'unnamed COMMIT (corked: true)', 'uncork']);
  });
});
