import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const CLK_TCK = 100;

/** utime + stime of a /proc/<pid>/stat line, in ms; null when it is not a `name` process (or any, without name). */
function statCpuMs(line: string, name?: string): number | null {
  const close = line.lastIndexOf(') ');
  if (name !== undefined && line.slice(line.indexOf('(') + 1, close) !== name) return null;
  // utime and stime are fields 14 and 15 of the line (11 and 12 after the command).
  const fields = line.slice(close + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

/**
 * CPU time (user + system) a process and its live child processes (a
 * `WORKERS=N` server's workers) have used so far, in ms.
 */
export function processCpuMs(pid: number): number {
  let total = 0;
  try {
    total = statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8')) ?? 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ')) {
        if (child.trim() !== '') total += processCpuMs(Number(child));
      }
    }
  } catch {
    // Gone meanwhile.
  }
  return total;
}

/**
 * CPU time used so far by each PostgreSQL process of this machine (the server's backends, WAL writer,
 * checkpointer…), in ms by process id; null when none is visible (a remote server).
 */
export function postgresCpuMs(): Map<number, number> | null {
  const byPid = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ms = statCpuMs(readFileSync(`/proc/${entry}/stat`, 'utf8'), 'postgres');
      if (ms !== null) byPid.set(Number(entry), ms);
    } catch {
      // Gone meanwhile.
    }
  }
  return byPid.size > 0 ? byPid : null;
}

/**
 * The CPU time PostgreSQL's processes used between two readings of `postgresCpuMs`, in ms: each process alive at
 * the second counts what it used since the first (all of it when it started in between, or when its id was
 * reused). A process that exited in between takes its time with them, so this slightly understates; it never
 * goes below zero (a sum over all processes did, when a pooled connection that had worked for long closed).
 */
export function postgresCpuBetween(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) {
    const earlier = before.get(pid);
    total += earlier !== undefined && earlier <= ms ? ms - earlier : ms;
  }
  return total;
}
