// Vault attachments (images, audio, PDFs) that published notes embed or link.
// Only files a visible note (or the site's banner/logo) refers to are published;
// everything else in the vault stays private.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isNotePath, toVaultPath } from '../../shared/vault-path.ts';
import { normalizeSegments } from '../../shared/model/links.ts';
import { isSkippedName, isSkippedPath } from '../../shared/model/vault-scan.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';

export interface AttachmentInfo {
  path: string;
  size: number;
  mtimeMs: number;
}

/** Where an attachment is served: its vault path, percent-encoded per segment. */
export function attachmentAddress(p: string): string {
  return '/' + p.split('/').map(encodeURIComponent).join('/');
}

export class AttachmentIndex {
  private files = new Map<string, AttachmentInfo>();
  private byName = new Map<string, string[]>();
  /** Bumped on every change: what an attachment link resolves to may have changed. */
  version = 0;

  constructor(
    private readonly vaultDir: string,
    private readonly skipDirs: string[] = [],
  ) {}

  async loadAll(): Promise<void> {
    this.files.clear();
    this.byName.clear();
    this.version++;
    const walk = async (dir: string): Promise<void> => {
      let entries: import('node:fs').Dirent[];
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      const folders: Promise<void>[] = [];
      for (const entry of entries) {
        if (isSkippedName(entry.name)) continue;
        const abs = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!this.skipDirs.some((d) => abs === d || abs.startsWith(d + path.sep))) folders.push(walk(abs));
        } else if (entry.isFile() && !isNotePath(entry.name)) {
          folders.push(this.refresh(toVaultPath(path.relative(this.vaultDir, abs))).then(() => undefined));
        }
      }
      await Promise.all(folders);
    };
    await walk(this.vaultDir);
  }

  /** Re-reads one path; returns true when the index changed. */
  async refresh(p: string): Promise<boolean> {
    if (isNotePath(p) || isSkippedPath(p)) return false;
    const abs = path.join(this.vaultDir, ...p.split('/'));
    if (this.skipDirs.some((d) => abs.startsWith(d + path.sep))) return false;
    let info: AttachmentInfo | null = null;
    try {
      const stat = await fs.lstat(abs);
      if (stat.isFile()) info = { path: p, size: stat.size, mtimeMs: stat.mtimeMs };
    } catch {
      info = null;
    }
    const before = this.files.get(p);
    if (!info) {
      if (!before) return false;
      this.version++;
      this.files.delete(p);
      const key = p.slice(p.lastIndexOf('/') + 1).toLowerCase();
      this.byName.set(key, (this.byName.get(key) ?? []).filter((x) => x !== p));
      return true;
    }
    this.files.set(p, info);
    this.version++;
    if (!before) {
      const key = p.slice(p.lastIndexOf('/') + 1).toLowerCase();
      this.byName.set(key, [...(this.byName.get(key) ?? []), p]);
    }
    return !before || before.size !== info.size || before.mtimeMs !== info.mtimeMs;
  }

  get(p: string): AttachmentInfo | undefined {
    return this.files.get(p);
  }

  /** The attachment a note's link names: next to the note, from the vault root, else by file name. */
  resolve(target: string, from: NoteRecord | null): string | null {
    const clean = normalizeSegments(target.replace(/[#?].*$/, '').trim());
    if (clean === '' || /^[a-z][a-z0-9+.-]*:/i.test(target)) return null;
    if (from?.folder) {
      const relative = normalizeSegments(`${from.folder}/${clean}`);
      if (this.files.has(relative)) return relative;
    }
    if (this.files.has(clean)) return clean;
    const candidates = this.byName.get(clean.slice(clean.lastIndexOf('/') + 1).toLowerCase()) ?? [];
    if (candidates.length === 0) return null;
    const sameFolder = from ? candidates.find((c) => c.startsWith(from.folder + '/')) : undefined;
    return sameFolder ?? [...candidates].sort((a, b) => a.length - b.length)[0]!;
  }
}
