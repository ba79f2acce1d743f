// Whether these tests may mount (root, and a kernel and container that allow it): bind
// mounts make a read-only folder (faults-read-only) and another disk inside a vault (rename-mount).
import { execFileSync } from 'node:child_process';

export function mountWorks(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = execFileSync('mktemp', ['-d'], { encoding: 'utf8' }).trim();
  try {
    execFileSync('mount', ['--bind', probe, probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    execFileSync('rm', ['-rf', probe]);
  }
}
