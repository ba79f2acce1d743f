// Which view fills the main area, and the side drawers' state on narrow screens.
import { prefs, setPref } from './prefs.ts';
import { Store } from './store.ts';

export type MainView = 'editor' | 'settings' | 'trash' | 'preview' | 'attachment' | 'comments' | 'health';
export const mainView = new Store<MainView>('editor');

/** On a narrow screen the tree and the panel are drawers over the editor. */
export const narrow = new Store<boolean>(false);

/** Which side panes are shown: stays on this device (Appendix C: panes stay). */
export interface Panes {
  treeOpen: boolean;
  panelOpen: boolean;
}
const PANES_KEY = 'vault-admin-panes';

function readPanes(): Panes {
  try {
    return { treeOpen: true, panelOpen: true, ...(JSON.parse(localStorage.getItem(PANES_KEY) ?? '{}') as Partial<Panes>) };
  } catch {
    return { treeOpen: true, panelOpen: true };
  }
}

export const panes = new Store<Panes>(readPanes());

export function setPane(key: keyof Panes, open: boolean): void {
  if (panes.get()[key] === open) return;
  const next = { ...panes.get(), [key]: open };
  panes.set(next);
  // A phone's closed drawers are not remembered as the desk's layout.
  if (!narrow.get()) {
    try {
      localStorage.setItem(PANES_KEY, JSON.stringify(next));
    } catch {
      /* layout memory is a nicety */
    }
  }
}

/** Asked before the main view changes; answering false keeps it (Settings with unsaved edits). */
type LeaveGuard = (from: MainView, to: MainView) => Promise<boolean>;
const leaveGuards = new Set<LeaveGuard>();

export function guardLeaving(guard: LeaveGuard): () => void {
  leaveGuards.add(guard);
  return () => leaveGuards.delete(guard);
}

export function showView(view: MainView): void {
  void changeView(view);
}

/** Changes the main view unless a guard keeps the current one; true when it changed. */
export async function changeView(view: MainView): Promise<boolean> {
  const from = mainView.get();
  if (from !== view) for (const guard of [...leaveGuards]) if (!(await guard(from, view))) return false;
  mainView.set(view);
  if (narrow.get()) setPane('treeOpen', false);
  return true;
}

/** What the left pane shows: the file tree or vault search. */
export const leftPane = new Store<{ show: 'files' | 'search'; focusAt: number }>({ show: 'files', focusAt: 0 });

/** Ctrl/Cmd+Shift+F: the left pane on vault search, its box focused. */
export function openSearch(): void {
  setPane('treeOpen', true);
  leftPane.set({ show: 'search', focusAt: Date.now() });
}

export function showFiles(): void {
  leftPane.set({ show: 'files', focusAt: 0 });
}

/** Opens the right-hand panel on a section (History, Backup & sync) and scrolls to it. */
export const panelSection = new Store<{ id: 'history' | 'backup'; at: number } | null>(null);

/** The right-hand panel belongs to the note being edited: other views have the width to themselves. */
export const hasPanel = (view: MainView) => view === 'editor';

export function showPanelSection(id: 'history' | 'backup'): void {
  if (!hasPanel(mainView.get())) void changeView('editor');
  setPane('panelOpen', true);
  if (narrow.get()) setPane('treeOpen', false);
  if (id === 'history' && !prefs.get().historySectionOpen) setPref('historySectionOpen', true);
  panelSection.set({ id, at: Date.now() });
}
