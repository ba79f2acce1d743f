// The open notes (tabs): one NoteSession and one CodeMirror view each. Wake-ups and
// `changed` events land here and are routed to the sessions they concern.
import { openSearchPanel } from '@codemirror/search';
import { api } from '../api.ts';
import { editorPhrases, t } from '../i18n.ts';
import { Store } from '../store.ts';
import { confirmDialog, toast } from '../ui/feedback.ts';
import { createNoteEditor, type NoteEditor } from './codemirror.ts';
import { NoteSession } from './session.ts';

export interface OpenNote {
  path: string;
  session: NoteSession;
  editor: NoteEditor;
  /** Bumped a moment after the text changes (Outline, word count). */
  edits: Store<number>;
  /** The editor's own element; the pane shows the active one. */
  host: HTMLDivElement;
}

export const tabs = new Store<{ paths: string[]; active: string | null }>({ paths: [], active: null });
const open = new Map<string, OpenNote>();

export const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1).replace(/\.(md|markdown|tex)$/i, '');

export function activeNote(): OpenNote | null {
  const active = tabs.get().active;
  return active ? (open.get(active) ?? null) : null;
}

export function openNoteAt(path: string): OpenNote | null {
  return open.get(path) ?? null;
}

const opening = new Map<string, Promise<OpenNote>>();

async function load(path: string): Promise<OpenNote> {
  const existing = open.get(path);
  if (existing) return existing;
  let pending = opening.get(path);
  if (!pending) {
    pending = loadNew(path).finally(() => opening.delete(path));
    opening.set(path, pending);
  }
  return pending;
}

async function loadNew(path: string): Promise<OpenNote> {
  const doc = await api.note(path);
  const host = document.createElement('div');
  host.className = 'editor-host';
  const session = new NoteSession(doc.path, doc.mtimeMs, doc.content, doc.hash ?? null, {
    onReloaded: (p) => toast(t('reloaded', { name: nameOf(p) })),
    onGone: (p) => void dropTab(p),
  });
  const edits = new Store(0);
  let settle: ReturnType<typeof setTimeout> | null = null;
  const editor = createNoteEditor(host, doc.content, {
    label: nameOf(path),
    onEdit: () => {
      session.onEdit();
      if (settle) clearTimeout(settle);
      settle = setTimeout(() => edits.update((n) => n + 1), 150);
    },
    path: () => session.path,
    phrases: editorPhrases(),
  });
  session.attach(editor);
  session.view.subscribe((v) => editor.setReadOnly(v.readOnly));
  session.sawReadOnly(doc.readOnly);
  const note = { path: doc.path, session, editor, host, edits };
  open.set(doc.path, note);
  return note;
}

/** Where the cursor goes once a note is on screen: an offset, the end, or a line (1-based). */
export type CursorTarget = number | 'end' | { line: number; column?: number };

/** Asked by openNote; the editor pane applies it once the note's editor is attached. */
export const cursorRequest = new Store<{ path: string; target: CursorTarget } | null>(null);

export function cursorOffset(doc: { length: number; lines: number; line(n: number): { from: number; length: number } }, target: CursorTarget): number {
  if (target === 'end') return doc.length;
  if (typeof target === 'number') return target;
  const line = doc.line(Math.max(1, Math.min(target.line, doc.lines)));
  return line.from + Math.min(target.column ?? 0, line.length);
}

export async function openNote(path: string, options: { cursor?: CursorTarget } = {}): Promise<OpenNote> {
  const previous = activeNote();
  const note = await load(path);
  if (previous && previous.path !== path) void previous.session.flush();
  tabs.update((s) => ({ paths: s.paths.includes(path) ? s.paths : [...s.paths, path], active: path }));
  if (options.cursor !== undefined) cursorRequest.set({ path, target: options.cursor });
  return note;
}

/** True while the note holds text that is not safely on disk (typed, saving, refused, in conflict). */
function unsaved(note: OpenNote): boolean {
  return note.session.view.get().status !== 'saved' || note.session.dirty;
}

const closing = new Map<string, Promise<boolean>>();

/**
 * The user closes a tab (its ×; every close the user asks for comes here). What is pending
 * is saved first; a note whose text still is not on disk (the server unreachable, a refusal,
 * the conflict strip) closes only when the user chooses to lose it.
 */
export function closeTab(path: string): Promise<boolean> {
  // A second click while the first close is still saving or asking joins it.
  let pending = closing.get(path);
  if (!pending) {
    pending = closeAsked(path).finally(() => closing.delete(path));
    closing.set(path, pending);
  }
  return pending;
}

async function closeAsked(path: string): Promise<boolean> {
  const note = open.get(path);
  if (note) {
    await note.session.flush().catch(() => undefined);
    if (unsaved(note)) {
      const lose = await confirmDialog(t('closeUnsaved', { name: nameOf(note.path) }), {
        detail: t('closeUnsavedDetail'),
        okLabel: t('closeWithoutSaving'),
        cancelLabel: t('keepEditing'),
        danger: true,
        keepFocus: true,
      });
      if (!lose) return false;
      // A rename meanwhile moved the tab: close it where it is now.
      await dropTab(note.path, false);
      return true;
    }
  }
  await dropTab(note?.path ?? path);
  return true;
}

/** Closes a tab without asking: the note went away (trash, gone from disk) or the user chose to lose its text. */
async function dropTab(path: string, save = true): Promise<void> {
  const note = open.get(path);
  if (note) {
    if (save) await note.session.flush().catch(() => undefined);
    note.session.close();
    note.editor.destroy();
    open.delete(path);
  }
  tabs.update((s) => {
    const paths = s.paths.filter((p) => p !== path);
    const index = s.paths.indexOf(path);
    const active = s.active === path ? (paths[Math.min(index, paths.length - 1)] ?? null) : s.active;
    return { paths, active };
  });
}

/**
 * Runs a rename or move this window asked for: the events that arrive meanwhile (the
 * old path gone, links rewritten in other notes) wait until it is done, so the tabs
 * follow the move and the app's own link rewrites are taken in quietly.
 */
export async function whileMoving<T>(work: () => Promise<T>): Promise<T> {
  const held = [...open.values()];
  for (const n of held) n.session.hold();
  try {
    return await work();
  } finally {
    for (const n of held) n.session.release();
  }
}

/** Keeps open tabs on their notes after a rename or move of the note or a folder above it. */
export function followRename(from: string, to: string): void {
  const mapPath = (p: string) => (p === from ? to : p.startsWith(from + '/') ? to + p.slice(from.length) : p);
  for (const [p, note] of [...open]) {
    const next = mapPath(p);
    if (next === p) continue;
    open.delete(p);
    note.path = next;
    note.session.path = next;
    open.set(next, note);
  }
  tabs.update((s) => ({ paths: s.paths.map(mapPath), active: s.active ? mapPath(s.active) : null }));
}

/**
 * The strip's Save my text there: the note was moved elsewhere (another window, server or
 * Obsidian), so the tab follows it and its text is saved at the new path (as a save, refused
 * if the moved note changed meanwhile). A clean tab already open there gives way.
 */
export async function saveWhereMoved(note: OpenNote, to: string): Promise<void> {
  const other = open.get(to);
  if (other && other !== note) {
    if (unsaved(other)) throw new Error(t('movedOpenUnsaved', { path: to }));
    await dropTab(to, false);
  }
  followRename(note.path, to);
  await note.session.saveWhereMoved();
}

/** The server rewrote links in these notes for a rename from this window: reload them without a word. */
export async function adoptRewrites(paths: string[]): Promise<void> {
  await Promise.all(paths.map((p) => open.get(p)?.session.reloadQuietly()));
}

/** Closes tabs of a note (or of the notes under a folder) that went to the trash. */
export async function forgetPath(path: string): Promise<void> {
  for (const p of [...open.keys()]) if (p === path || p.startsWith(path + '/')) await dropTab(p);
}

/** spec 3.6 / 6: the stream replays nothing, so every open note is re-checked. */
export async function recheckOpenNotes(): Promise<void> {
  const paths = [...open.keys()];
  if (paths.length === 0) return;
  const { states } = await api.noteStates(paths);
  await Promise.all(states.map((s) => open.get(s.path)?.session.recheck(s)));
}

/** A `changed` event from the stream. */
export function noteChangedOnDisk(path: string): void {
  const note = open.get(path);
  if (note) void note.session.recheck();
  // A note written elsewhere may be where a gone one went (a move seen as delete + create).
  else for (const n of open.values()) void n.session.lookForMove();
}

/** Opens the find panel of the note on screen (Ctrl/Cmd+F, `@codemirror/search`). */
export function openFindInNote(): void {
  const note = activeNote();
  if (!note) return;
  note.editor.view.focus();
  openSearchPanel(note.editor.view);
}

/** Saves every pending edit (window hidden, sign-out). */
export async function flushAll(): Promise<void> {
  await Promise.all([...open.values()].map((n) => n.session.flush().catch(() => undefined)));
}

// Reloading or closing the window while a note's text is not on disk: the browser asks
// whether to leave, and the pending saves start meanwhile.
window.addEventListener('beforeunload', (e) => {
  if (![...open.values()].some(unsaved)) return;
  void flushAll();
  e.preventDefault();
  e.returnValue = '';
});
