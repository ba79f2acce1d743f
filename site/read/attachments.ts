// Vault attachments (images, audio, PDFs) that published notes embed or link.
// Only files a visible note (or the site's banner/logo) refers to are published;
// everything else in the vault stays private.
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { encodeAddress, fileAddress } from '../../shared/model/addresses.ts';
import { isNotePath } from '../../shared/vault-path.ts';
import { readRegularFileSync } from '../../shared/vault-read.ts';
import { VaultEntries } from '../../shared/vault-walk.ts';
import { chooseLinkpath, normalizeSegments } from '../../shared/model/links.ts';
import { drawingExports, isDrawingTarget, linkKey } from '../../shared/wikilinks.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';

export interface AttachmentInfo {
  path: string;
  size: number;
  mtimeMs: number;
  /**
   * Moves with every write of the file, which no program can set back: a file replaced
   * by one of the same size with its time kept (`cp -p`, `rsync -a`, a sync tool) was
   * never published again, restarts included.
   */
  ctimeMs: number;
}

const infoOf = (p: string, stat: { size: number; mtimeMs: number; ctimeMs: number }): AttachmentInfo => ({ path: p, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs });

/** What the published copy depends on: a different stamp means the copy is made again. */
export const attachmentStamp = (info: AttachmentInfo) => `${info.size}:${info.mtimeMs}:${info.ctimeMs}`;

/** Where an attachment is served: its vault path, percent-encoded per segment. */
export function attachmentAddress(p: string): string {
  return encodeAddress(fileAddress(p));
}

export class AttachmentIndex {
  private files = new Map<string, AttachmentInfo>();
  private byName = new Map<string, string[]>();
  /** Paths by their case-folded form (links ignore case, as Obsidian's do). */
  private byLowerPath = new Map<string, string>();
  /** Bumped on every change: what an attachment link resolves to may have changed. */
  version = 0;
  /** The text of the small files the site reads (bases, canvases), by path, as of their stamp. */
  private texts = new Map<string, { stamp: string; text: string | null }>();

  private readonly entries: VaultEntries;

  constructor(vaultDir: string, skipDirs: string[] = []) {
    this.entries = new VaultEntries(vaultDir, skipDirs);
  }

  async loadAll(): Promise<void> {
    this.loadFrom((await this.entries.list()).filter((e) => e.kind === 'attachment').map((e) => e.path));
  }

  /** Indexes the attachments a walk found (regular files reached without a link): one lstat each, notes never. */
  loadFrom(paths: Iterable<string>): void {
    const infos: AttachmentInfo[] = [];
    for (const p of paths) {
      const stat = lstatSync(path.join(this.entries.dir, ...p.split('/')), { throwIfNoEntry: false });
      if (stat?.isFile()) infos.push(infoOf(p, stat));
    }
    this.adopt(infos);
  }

  /** Every attachment as indexed (what the build thread of a full build is given). */
  list(): AttachmentInfo[] {
    return [...this.files.values()];
  }

  adopt(infos: Iterable<AttachmentInfo>): void {
    this.files.clear();
    this.byName.clear();
    this.byLowerPath.clear();
    this.version++;
    for (const info of infos) this.set(info.path, info);
  }

  /** Re-reads one path; returns true when the index changed. A path through a link is no attachment. */
  async refresh(p: string): Promise<boolean> {
    if (isNotePath(p)) return false;
    const stat = await this.entries.stat(p);
    const info: AttachmentInfo | null = stat?.isFile() ? infoOf(p, stat) : null;
    const before = this.files.get(p);
    if (!info) {
      if (!before) return false;
      this.version++;
      this.files.delete(p);
      if (this.byLowerPath.get(linkKey(p)) === p) this.byLowerPath.delete(linkKey(p));
      const key = p.slice(p.lastIndexOf('/') + 1).toLowerCase();
      this.byName.set(key, (this.byName.get(key) ?? []).filter((x) => x !== p));
      return true;
    }
    this.set(p, info);
    return !before || attachmentStamp(before) !== attachmentStamp(info);
  }

  private set(p: string, info: AttachmentInfo): void {
    const before = this.files.get(p);
    this.files.set(p, info);
    this.version++;
    if (!before) {
      this.byLowerPath.set(linkKey(p), p);
      const key = p.slice(p.lastIndexOf('/') + 1).toLowerCase();
      this.byName.set(key, [...(this.byName.get(key) ?? []), p]);
    }
  }

  get(p: string): AttachmentInfo | undefined {
    return this.files.get(p);
  }

  /** A small text file's content (a base, a canvas), read once per stamp; null when gone, unreadable or over `maxBytes`. */
  text(p: string, maxBytes: number): string | null {
    const info = this.files.get(p);
    if (!info) {
      this.texts.delete(p);
      return null;
    }
    const stamp = attachmentStamp(info);
    const known = this.texts.get(p);
    if (known?.stamp === stamp) return known.text;
    let text: string | null = null;
    try {
      text = readRegularFileSync(path.join(this.entries.dir, ...p.split('/')), maxBytes)?.toString('utf8') ?? null;
    } catch {
      text = null;
    }
    this.texts.set(p, { stamp, text });
    return text;
  }

  /** The attachments the published notes among `records` show (their embeds and banners), each with what it is. */
  shownByPublished(records: Iterable<NoteRecord>): [string, AttachmentInfo][] {
    const shown = new Map<string, AttachmentInfo>();
    for (const note of records) {
      if (!note.publish) continue;
      for (const target of note.banner ? [...note.embeds, note.banner] : note.embeds) {
        const p = this.resolve(target, note);
        const info = p === null ? undefined : this.get(p);
        if (info) shown.set(p!, info);
      }
    }
    return [...shown];
  }

  /** The attachment a note's link names, by the same rule as links to notes (links.ts). */
  resolve(target: string, from: NoteRecord | null): string | null {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null;
    const clean = normalizeSegments(target.replace(/[#?][^]*$/, '').trim());
    const lookup = { byPath: (key: string) => this.byLowerPath.get(key), byName: (key: string) => this.byName.get(key) };
    // An Excalidraw drawing is the picture exported beside it (shared/wikilinks.ts).
    if (isDrawingTarget(clean)) {
      for (const exported of drawingExports(clean)) {
        const found = chooseLinkpath(exported, from ? from.folder : null, lookup);
        if (found !== null) return found;
      }
      return null;
    }
    return chooseLinkpath(clean, from ? from.folder : null, lookup);
  }
}
