import { readFileSync } from 'node:fs';

/**
 * `npm run service` puts npm and a shell between the caller and us, and
 * neither passes SIGTERM or SIGKILL on to the service. So when npm started
 * us, we watch npm and the shell ourselves and shut down when either is
 * gone: a caller that stops "the service" it launched really stops it.
 * Linux exposes the chain in /proc; elsewhere only the direct parent is
 * watched.
 */
export function watchLauncher(onGone: () => void, intervalMs = 300): void {
  if (!process.env.npm_lifecycle_event) return;
  const watched = [process.ppid];
  const grandparent = parentOf(process.ppid);
  if (grandparent !== undefined && grandparent > 1) watched.push(grandparent);
  const timer = setInterval(() => {
    if (process.ppid !== watched[0] || !watched.every(isAlive)) {
      clearInterval(timer);
      onGone();
    }
  }, intervalMs);
  timer.unref();
}

function parentOf(pid: number): number | undefined {
  try {
    // The command name may hold spaces and parentheses; the fields after its last ")" do not.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

/** Whether a process exists (one we may not signal still exists). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
