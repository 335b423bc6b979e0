import { close, fdatasync, openSync } from 'node:fs';
import { promisify } from 'node:util';
import { UnavailableError } from '../errors.js';

const fdatasyncAsync = promisify(fdatasync);

/**
 * Group commit for the embedded database.
 *
 * With `synchronous=FULL`, SQLite fsyncs the WAL inside every COMMIT, during
 * which better-sqlite3 (synchronous) blocks the event loop, so write throughput
 * would be capped near 1/fsync. Instead
 * the database runs with `synchronous=NORMAL` (a commit is written to the WAL
 * but not synced) and Parley syncs the WAL itself, off the event loop, before
 * it answers: `settle()` resolves once every write committed so far in this
 * process is on disk. Commits that arrive while a sync runs share the next one,
 * so one fdatasync covers many requests.
 *
 * The HTTP layer settles before sending every response (see app.ts), so an
 * acknowledged write is on disk — the same guarantee as `synchronous=FULL`
 * (kill -9 and power loss) — and no response shows data that a crash could
 * still take back. Checkpoints under NORMAL sync the WAL before copying it into
 * the database and sync the database afterwards (SQLite's own rule).
 *
 * If a sync fails, `settle()` throws UnavailableError (the response becomes a
 * 503): the writes may not be durable, and the client must not be told they are.
 */
export class WalDurability {
  /** Writes completed so far (autocommit statements and commits, counted by the driver wrapper). */
  private written = 0;
  /** All writes up to this count are on disk. */
  private synced = 0;
  private running: Promise<void> | null = null;
  private fd: number | null = null;

  constructor(
    private readonly walPath: string,
    /** How a file is synced (a test can count or fail syncs). */
    private readonly syncFile: (fd: number) => Promise<void> = fdatasyncAsync,
  ) {}

  /** A write has reached the WAL (a statement outside a transaction, or a COMMIT). */
  noteWrite(): void {
    this.written++;
  }

  /** Resolves when every write noted so far is on disk; null when they already are. */
  settle(): Promise<void> | null {
    return this.synced >= this.written ? null : this.syncUpTo(this.written);
  }

  private async syncUpTo(target: number): Promise<void> {
    while (this.synced < target) {
      this.running ??= this.syncOnce().finally(() => {
        this.running = null;
      });
      await this.running;
    }
  }

  private async syncOnce(): Promise<void> {
    const upTo = this.written;
    try {
      this.fd ??= openSync(this.walPath, 'r');
      await this.syncFile(this.fd);
    } catch (error) {
      throw new UnavailableError('could not make the write durable', { cause: error });
    }
    if (upTo > this.synced) this.synced = upTo;
  }

  /** Releases the WAL file handle (the database closes separately). */
  close(): void {
    if (this.fd !== null) close(this.fd, () => {});
    this.fd = null;
  }
}
