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
 * CPU time used so far by every PostgreSQL process of this machine (the server's
 * backends, WAL writer, checkpointer…), in ms; null when none is visible (a
 * remote server). Processes that exit between two readings (autovacuum workers)
 * take their time with them, so a difference slightly understates.
 */
export function postgresCpuMs(): number | null {
  let total = 0;
  let seen = false;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ms = statCpuMs(readFileSync(`/proc/${entry}/stat`, 'utf8'), 'postgres');
      if (ms === null) continue;
      total += ms;
      seen = true;
    } catch {
      // Gone meanwhile.
    }
  }
  return seen ? total : null;
}
