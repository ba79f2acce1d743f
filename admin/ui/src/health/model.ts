// Site health in the admin app (CONTRACT §13): the newest build's warnings, kept current
// (the status bar's count, the Site health view, a note's own list), and their fixes.
import { firstConflictLine } from '../../../../shared/note/merge-conflicts.ts';
import { api } from '../api.ts';
import { openNote, openNoteAt } from '../editor/workspace.ts';
import { setPublished } from '../editor/PublishControls.tsx';
import { setKey } from '../tree/frontmatter.ts';
import { refreshTree } from '../tree/model.ts';
import { Store } from '../store.ts';
import type { HealthWarning } from '../types.ts';
import { showView } from '../views.ts';

export interface HealthList {
  warnings: HealthWarning[];
  total: number;
}

/** Every warning (up to MAX_PAGES pages); null until the first answer. */
export const siteWarnings = new Store<HealthList | null>(null);

/** Past this many pages the view says how many there are and lists the first ones. */
const MAX_PAGES = 10;
const POLL_MS = 60_000;
/** A burst of saves is one reload, after the build has had a moment. */
const AFTER_CHANGE_MS = 1_500;

let loading: Promise<void> | null = null;
let again = false;

export function refreshWarnings(): Promise<void> {
  if (loading) {
    again = true;
    return loading;
  }
  loading = (async () => {
    do {
      again = false;
      const first = await api.siteWarnings(1);
      const warnings = [...first.warnings];
      for (let page = 2; page <= Math.min(first.pages, MAX_PAGES); page++) warnings.push(...(await api.siteWarnings(page)).warnings);
      siteWarnings.set({ warnings, total: first.total });
    } while (again);
  })().finally(() => (loading = null));
  return loading;
}

let changeTimer: ReturnType<typeof setTimeout> | null = null;

/** A note changed on disk: its build may add or end warnings. */
export function warningsMayChange(): void {
  if (changeTimer) clearTimeout(changeTimer);
  changeTimer = setTimeout(() => void refreshWarnings().catch(() => undefined), AFTER_CHANGE_MS);
}

export function startWarningPolling(): () => void {
  void refreshWarnings().catch(() => undefined);
  const timer = setInterval(() => void refreshWarnings().catch(() => undefined), POLL_MS);
  return () => {
    clearInterval(timer);
    if (changeTimer) clearTimeout(changeTimer);
  };
}

/** The warnings of one note, in the build's order. */
export function warningsOf(list: HealthList | null, path: string): HealthWarning[] {
  return list ? list.warnings.filter((w) => w.path === path) : [];
}

/** The notes with warnings, each with its list, by path. */
export function byNote(list: HealthList | null): [string, HealthWarning[]][] {
  const groups = new Map<string, HealthWarning[]>();
  for (const w of list?.warnings ?? []) {
    let group = groups.get(w.path);
    if (!group) groups.set(w.path, (group = []));
    group.push(w);
  }
  return [...groups];
}

/** A fix that publishes the other note: a link or embed of a note visitors cannot read. */
export const publishFix = (w: HealthWarning): string | null => ((w.kind === 'unpublished_link' || w.kind === 'unpublished_embed') && w.target ? w.target : null);

/** Sets `publish: true` in `path` through the note API (the open editor's text when it is open), then reloads the list. */
export async function publishNote(path: string): Promise<void> {
  const open = openNoteAt(path);
  if (open) await setPublished(open, true);
  else {
    const doc = await api.note(path);
    await api.saveNote(path, setKey(doc.content, 'publish', true), doc.mtimeMs, { baseHash: doc.hash });
    void refreshTree();
  }
  await refreshWarnings();
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The 1-based line where `link` is written in `text` (`[[link`, `](link`), or null. */
export function lineOfLink(text: string, link: string): number | null {
  const name = escapeRe(link);
  const encoded = escapeRe(link.replace(/ /g, '%20'));
  const pattern = new RegExp(`\\[\\[\\s*${name}\\s*(?:[#|\\]])|\\]\\(<?(?:${name}|${encoded})(?:[#?)>\\s])`, 'i');
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) if (pattern.test(lines[i]!)) return i + 1;
  return null;
}

/** Whether a warning stands at a line of its note: a link's, or a merge conflict's first marker. */
export const hasLine = (w: HealthWarning): boolean => Boolean(w.link) || w.kind === 'merge_conflict';

/** Opens the note in the editor at the line the warning is about (hasLine), when it is found. */
export async function openAtWarning(w: HealthWarning): Promise<void> {
  showView('editor');
  const note = await openNote(w.path);
  const text = note.editor.getText();
  const line = w.kind === 'merge_conflict' ? firstConflictLine(text) : w.link ? lineOfLink(text, w.link) : null;
  await openNote(w.path, { cursor: line ? { line } : 0 });
}
