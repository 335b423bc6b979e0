/**
 * Group commit for SQLite (store/sqlite/wal-durability.ts): settle() waits for
 * a sync that started after every write noted so far, and writes that arrive
 * during a sync share the next one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UnavailableError } from '../../../src/store/errors.js';
import { WalDurability } from '../../../src/store/sqlite/wal-durability.js';
import { syncControl } from '../../support/sync-control.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-wal-'));
const wal = join(dir, 'p.db-wal');
writeFileSync(wal, '');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tick = () => new Promise((r) => setImmediate(r));

describe('WalDurability', () => {
  it('does not sync when nothing was written (settle answers null: nothing to wait for)', async () => {
    const control = syncControl();
    const durability = new WalDurability(wal, control.sync);
    expect(durability.settle()).toBeNull();
    expect(control.count()).toBe(0);
    durability.close();
  });

  it('syncs once for a write, and not again for a second settle', async () => {
    const control = syncControl();
    const durability = new WalDurability(wal, control.sync);
    durability.noteWrite();
    const settled = durability.settle();
    await tick();
    expect(control.count()).toBe(1);
    control.release();
    await settled;
    await durability.settle();
    expect(control.count()).toBe(1);
    durability.close();
  });

  it('lets writes made during a sync share the next one, and not resolve before it', async () => {
    const control = syncControl();
    const durability = new WalDurability(wal, control.sync);
    durability.noteWrite();
    const first = durability.settle();
    await tick();
    expect(control.count()).toBe(1);

    const later: Array<Promise<void>> = [];
    let resolvedLater = 0;
    for (let i = 0; i < 5; i++) {
      durability.noteWrite();
      later.push(Promise.resolve(durability.settle()).then(() => void resolvedLater++));
    }
    control.release(); // the first sync ends: it started before the five writes
    await first;
    await tick();
    expect(resolvedLater).toBe(0);
    expect(control.count()).toBe(2); // one more sync, for all five
    control.release();
    await Promise.all(later);
    expect(resolvedLater).toBe(5);
    expect(control.count()).toBe(2);
    durability.close();
  });

  it('reports a failed sync as UnavailableError, and syncs again on the next settle', async () => {
    const control = syncControl();
    const durability = new WalDurability(wal, control.sync);
    durability.noteWrite();
    control.failNext();
    await expect(Promise.resolve(durability.settle())).rejects.toBeInstanceOf(UnavailableError);
    const retry = durability.settle();
    await tick();
    expect(control.count()).toBe(2);
    control.release();
    await retry;
    durability.close();
  });
});
