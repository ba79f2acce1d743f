// What tells a file's current content from the content it had when it was last looked at,
// without reading it: its inode, size and ctime. A write, a truncation or a rename onto the
// name changes one of them (ctime is set by the kernel on every change and cannot be set back
// by a program, unlike mtime: `cp -p` and `touch -d` keep or choose mtime).
export interface StampedStats {
  ino: number;
  size: number;
  ctimeMs: number;
}

export const fileStamp = (stats: StampedStats): string => `${stats.ino}/${stats.size}/${stats.ctimeMs}`;

/** The file's size in bytes as its stamp recorded it, or null for no stamp. */
export function stampSize(stamp: string | null): number | null {
  const size = stamp === null ? NaN : Number(stamp.split('/')[1]);
  return Number.isFinite(size) ? size : null;
}
