/** Whether a process with this pid still runs (signal 0 checks without signalling): for locks and folders a killed run left behind. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
