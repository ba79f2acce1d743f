// One open note (spec 3.6, 4.4, 8): autosave about 600 ms after typing stops, each
// save carrying the modification time the text was loaded with; a 409 pauses
// autosave and raises the resolution strip; wake-ups re-check the file on disk.
// The editor itself is behind `EditorDoc`, so this file holds only the rules.
import { api, ApiError } from '../api.ts';
import { Store } from '../store.ts';

export const AUTOSAVE_DELAY_MS = 600;
const RETRY_DELAY_MS = 3000;

export interface EditorDoc {
  getText(): string;
  /** Replaces the whole text; `undoable` puts it on the undo history as its own step. */
  replace(text: string, undoable: boolean): void;
  undo(): boolean;
}

export type SaveStatus = 'saved' | 'dirty' | 'saving' | 'conflict' | 'error';

export interface SessionView {
  status: SaveStatus;
  /**
   * Set while the resolution strip shows: the disk's mtime, null when the file is gone;
   * `movedTo`: where the gone note is now, when the server can tell (a rename elsewhere).
   */
  conflict: { diskMtimeMs: number | null; movedTo?: string | null } | null;
  error: string | null;
  /** The file has no write permission (as last read or refused): the editor takes no typing. */
  readOnly: boolean;
}

/** A restore would replace text the server never took, and that text could not be kept as a version. */
export class UnsavedNotKept extends Error {}

export interface SessionHooks {
  /** A clean note was reloaded from disk because someone else changed it. */
  onReloaded?(path: string): void;
  /** A clean note vanished from disk. */
  onGone?(path: string): void;
}

/** The view of no open note, for a component that shows one only when a note is open. */
export const NO_SESSION = new Store<SessionView>({ status: 'saved', conflict: null, error: null, readOnly: false });

export class NoteSession {
  readonly view = new Store<SessionView>({ status: 'saved', conflict: null, error: null, readOnly: false });
  private doc: EditorDoc | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Work that changes what the server holds (a save, a restore); re-checks wait for it. */
  private inflight = 0;
  private recheckQueued = false;
  private saving: Promise<void> | null = null;
  private closed = false;

  constructor(
    public path: string,
    /** The mtime of the file as this text was loaded or last saved. */
    public baseMtimeMs: number | null,
    /** What the server holds at `baseMtimeMs`, as far as this window knows. */
    public savedText: string,
    /** The hash the server answered for those bytes (null: not known). */
    public baseHash: string | null,
    private hooks: SessionHooks = {},
  ) {}

  attach(doc: EditorDoc): void {
    this.doc = doc;
  }

  /**
   * What the server said of the file's permission. Made writable again, text a refusal left
   * unsaved is saved at once.
   */
  sawReadOnly(readOnly: boolean): void {
    if (this.view.get().readOnly === readOnly) return;
    this.publish({ readOnly, ...(readOnly ? {} : { error: null }) });
    if (!readOnly && this.dirty && !this.view.get().conflict) this.schedule(0);
  }

  get dirty(): boolean {
    return this.doc !== null && this.doc.getText() !== this.savedText;
  }

  private publish(patch: Partial<SessionView>): void {
    const current = this.view.get();
    const next = { ...current, ...patch };
    if (!('status' in patch)) next.status = this.statusNow(next);
    this.view.set(next);
  }

  private statusNow(v: SessionView): SaveStatus {
    if (v.conflict) return 'conflict';
    if (this.saving) return 'saving';
    if (v.error && this.dirty) return 'error';
    return this.dirty ? 'dirty' : 'saved';
  }

  /** The editor's text changed (typing, undo, or a programmatic replace). */
  onEdit(): void {
    if (this.closed) return;
    if (this.view.get().conflict) {
      this.publish({});
      return; // spec 3.6: autosave pauses while the strip shows
    }
    this.schedule(AUTOSAVE_DELAY_MS);
    this.publish({});
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.save();
    }, delay);
  }

  /** Saves now whatever is pending (tab switch, window hidden, before a restore). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.saving) await this.saving;
    if (this.dirty && !this.view.get().conflict) await this.save();
  }

  private async save(): Promise<void> {
    if (this.saving) {
      await this.saving;
      if (this.dirty) this.schedule(0);
      return;
    }
    if (!this.doc || this.view.get().conflict) return;
    const text = this.doc.getText();
    if (text === this.savedText) {
      this.publish({ error: null });
      return;
    }
    this.saving = this.write(text, this.baseMtimeMs ?? undefined);
    this.publish({ status: 'saving' });
    await this.saving;
  }

  private async write(text: string, baseMtimeMs: number | undefined, overwrite = false, restore = false): Promise<void> {
    this.inflight++;
    try {
      const answer = await api.saveNote(this.path, text, baseMtimeMs, { baseHash: this.baseHash ?? undefined, overwrite, restore });
      this.baseMtimeMs = answer.mtimeMs;
      this.baseHash = answer.hash;
      this.savedText = text;
      this.saving = null;
      this.publish({ error: null, conflict: null });
      if (this.dirty) this.schedule(AUTOSAVE_DELAY_MS);
    } catch (err) {
      this.saving = null;
      if (err instanceof ApiError && err.status === 409 && err.code === 'stale') {
        const disk = err.body.mtimeMs;
        this.raise(typeof disk === 'number' ? disk : null);
      } else if (err instanceof ApiError && err.status === 409 && err.code === 'read_only') {
        // Made read-only while open: the text stays in the editor, unsaved, until the file is writable.
        this.publish({ error: err.message, readOnly: true });
      } else {
        this.publish({ error: err instanceof Error ? err.message : String(err) });
        // A refusal (400 bad_frontmatter, 413...) waits for the next edit; an outage is retried.
        const transient = !(err instanceof ApiError) || err.status === 0 || err.status >= 500;
        if (transient) this.schedule(RETRY_DELAY_MS);
      }
    } finally {
      this.inflight--;
      this.runQueuedRecheck();
    }
  }

  private runQueuedRecheck(): void {
    if (this.inflight === 0 && this.recheckQueued) {
      this.recheckQueued = false;
      void this.recheck();
    }
  }

  /**
   * spec 3.6: on a `changed` event, a reconnect or a window becoming visible. A file
   * changed under unsaved edits raises the strip at once; an untouched one reloads.
   */
  async recheck(known?: { mtimeMs: number | null; readOnly: boolean }): Promise<void> {
    if (this.closed || !this.doc) return;
    if (this.inflight > 0) {
      this.recheckQueued = true;
      return;
    }
    const state = known ?? (await api.noteStates([this.path])).states[0] ?? { mtimeMs: null, readOnly: false };
    const disk = state.mtimeMs;
    // chmod leaves the mtime as it was: the permission is taken before the mtime's checks.
    if (disk !== null) this.sawReadOnly(state.readOnly);
    // A moved mtime over the very bytes this text was loaded from (touch, a sync client) is no change.
    if (disk !== null && disk !== this.baseMtimeMs && !this.view.get().conflict && (await this.onlyTouched())) return;
    if (this.inflight > 0) {
      this.recheckQueued = true;
      return;
    }
    if (disk !== null && disk === this.baseMtimeMs) return;
    if (this.view.get().conflict) {
      this.raise(disk);
      return;
    }
    if (this.dirty || this.timer) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.raise(disk);
      return;
    }
    if (disk === null) {
      this.hooks.onGone?.(this.path);
      return;
    }
    await this.reloadFromDisk(false);
    this.hooks.onReloaded?.(this.path);
  }

  /** True, with the new mtime taken as the base, when the disk still holds the bytes this text was loaded from. */
  private async onlyTouched(): Promise<boolean> {
    if (this.baseHash === null) return false;
    const note = await api.note(this.path).catch(() => null);
    if (!note || note.hash !== this.baseHash || this.inflight > 0 || this.view.get().conflict) return false;
    this.baseMtimeMs = note.mtimeMs;
    this.sawReadOnly(note.readOnly);
    return true;
  }

  /** Raises (or updates) the strip; a note gone from disk asks the server where it went. */
  private raise(disk: number | null): void {
    const was = this.view.get().conflict;
    this.publish({ conflict: { diskMtimeMs: disk, movedTo: disk === null ? (was?.movedTo ?? null) : null }, error: null });
    if (disk === null) void this.lookForMove();
  }

  /**
   * Asks where the gone note went (again after any change in the vault while the strip
   * shows it gone: a move seen as a delete and a new file may not have arrived yet).
   */
  async lookForMove(): Promise<void> {
    const conflict = this.view.get().conflict;
    if (this.closed || !conflict || conflict.diskMtimeMs !== null || conflict.movedTo) return;
    const asked = this.path;
    const answer = await api.noteMoved(asked, this.baseHash ?? undefined).catch(() => null);
    const now = this.view.get().conflict;
    if (!answer?.movedTo || asked !== this.path || !now || now.diskMtimeMs !== null) return;
    this.publish({ conflict: { ...now, movedTo: answer.movedTo } });
  }

  /** Loads the disk text into the editor; undoable when the user chose it. */
  private async reloadFromDisk(undoable: boolean): Promise<boolean> {
    this.inflight++;
    try {
      const note = await api.note(this.path);
      this.baseMtimeMs = note.mtimeMs;
      this.baseHash = note.hash;
      this.savedText = note.content;
      if (this.doc && this.doc.getText() !== note.content) this.doc.replace(note.content, undoable);
      this.publish({ conflict: null, error: null, readOnly: note.readOnly });
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return false;
      throw err;
    } finally {
      this.inflight--;
      this.runQueuedRecheck();
    }
  }

  /** Takes in a change this window caused elsewhere (a link rewrite after its rename). */
  async reloadQuietly(): Promise<void> {
    if (this.dirty || this.view.get().conflict || !this.doc) return;
    await this.reloadFromDisk(false);
  }

  /** Strip: write this window's text over the newer file. */
  async keepMine(): Promise<void> {
    const conflict = this.view.get().conflict;
    if (!conflict || !this.doc) return;
    // Carry the disk's mtime seen by the strip: a third change still raises it again.
    // `overwrite`: the disk's text was never taken in here, so the server keeps it as a version.
    this.publish({ conflict: null, status: 'saving' });
    this.saving = this.write(this.doc.getText(), conflict.diskMtimeMs ?? undefined, true);
    await this.saving;
  }

  /**
   * Strip: the note was moved (`movedTo`) and the caller has moved this session there; this
   * window's text is saved at the new path, with the same stale check as any save: if the moved
   * note changed since this text was loaded, the strip shows again, there.
   */
  async saveWhereMoved(): Promise<void> {
    if (!this.view.get().conflict || !this.doc) return;
    this.publish({ conflict: null, status: 'saving' });
    this.saving = this.write(this.doc.getText(), this.baseMtimeMs ?? undefined);
    await this.saving;
  }

  /**
   * A restore replaces the editor's text: text the server never took (its saves failed) is
   * kept as a version first, as the restore dialog promises, or the restore does not happen.
   */
  private async keepUnsaved(): Promise<void> {
    if (!this.doc || !this.dirty) return;
    try {
      await api.keepVersion(this.path, this.doc.getText());
    } catch (err) {
      throw new UnsavedNotKept(err instanceof Error ? err.message : String(err));
    }
  }

  /** Strip: take the disk's text; mine is kept as a version first, and stays one Ctrl/Cmd+Z away. */
  async useDisk(): Promise<boolean> {
    if (!this.view.get().conflict) return true;
    if (this.doc && this.dirty) await api.keepVersion(this.path, this.doc.getText());
    return this.reloadFromDisk(true);
  }

  /**
   * History restore of a commit revision (Appendix B): the text goes into the editor as one
   * undoable step and is saved at once, the text it replaces kept as a version first (a
   * restore always keeps what it replaces, inside the 5 minutes an ordinary save merges too).
   */
  async applyRestore(text: string): Promise<void> {
    await this.flush();
    if (!this.doc) return;
    await this.keepUnsaved();
    this.doc.replace(text, true);
    if (this.view.get().conflict) return; // the strip decides, as for any edit
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.saving) await this.saving;
    if (!this.dirty) return;
    this.saving = this.write(text, this.baseMtimeMs ?? undefined, false, true);
    this.publish({ status: 'saving' });
    await this.saving;
  }

  /**
   * After the server restored a version (POST /api/versions/restore): show its text
   * as an undoable step, already saved at `mtimeMs`.
   */
  async adoptServerWrite(run: () => Promise<{ mtimeMs: number }>): Promise<void> {
    await this.flush();
    this.inflight++;
    try {
      await this.keepUnsaved();
      // Typing meanwhile waits: the text the server is about to replace has just been kept.
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      const { mtimeMs } = await run();
      const note = await api.note(this.path);
      this.baseMtimeMs = note.mtimeMs ?? mtimeMs;
      this.baseHash = note.hash;
      this.savedText = note.content;
      this.doc?.replace(note.content, true);
      this.publish({ conflict: null, error: null, readOnly: note.readOnly });
    } catch (err) {
      // Nothing was restored: unsaved text is tried again, as before.
      if (this.dirty && !this.timer && !this.view.get().conflict) this.schedule(RETRY_DELAY_MS);
      throw err;
    } finally {
      this.inflight--;
      this.runQueuedRecheck();
    }
  }

  /** Toast Undo: one editor undo step, saved at once. */
  async undoLast(): Promise<void> {
    if (!this.doc) return;
    this.doc.undo();
    await this.flush();
  }

  /** Defers re-checks while this window itself moves the note (a rename in flight). */
  hold(): void {
    this.inflight++;
  }

  release(): void {
    this.inflight--;
    this.runQueuedRecheck();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
