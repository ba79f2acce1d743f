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

/** How long before its read a file's last change must be for its stamp to stand for the text read. */
const SETTLED_MS = 100;
/** The same on a volume that keeps whole seconds (FAT's two, HFS+'s one): its ctimes have no fraction. */
const SETTLED_COARSE_MS = 2_000;

/**
 * Whether a file last changed at `ctimeMs` and read at `nowMs` may be stamped: a write in the
 * same tick of the volume's clock would leave the stamp as it was, and a record kept under it
 * would be restored over the newer text (as git's index treats a "racily clean" file).
 */
export function stampSettled(ctimeMs: number, nowMs: number): boolean {
  return nowMs - ctimeMs > (ctimeMs % 1000 === 0 ? SETTLED_COARSE_MS : SETTLED_MS);
}
