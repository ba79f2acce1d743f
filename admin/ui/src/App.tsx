// The frame: sign-in, then file tree · main view · right-hand panel, a status bar,
// and the layers (palette, dialogs, toasts, menus) above them.
import { useEffect, useState } from 'preact/hooks';
import { api, onSignedOut } from './api.ts';
import { EditorPane } from './editor/EditorPane.tsx';
import { activeNote, flushAll, noteChangedOnDisk, openFindInNote, openNote, recheckOpenNotes, tabs } from './editor/workspace.ts';
import { lang, shortcut, t } from './i18n.ts';
import { startLive } from './live.ts';
import { RightPanel } from './panel/RightPanel.tsx';
import { pokeSync, startSyncPolling, stopSyncPolling, windowOpened } from './panel/sync-model.ts';
import { timelineStamp } from './panel/timeline.ts';
import { flushPrefs, pullPrefs } from './prefs.ts';
import { drafts, settingsChangedOnServer } from './settings/form-model.ts';
import { inSettingsForm, SettingsView } from './settings/SettingsView.tsx';
import { useStore } from './store.ts';
import { CollectionsDialog } from './tree/CollectionsDialog.tsx';
import { refreshTree, revealPath } from './tree/model.ts';
import { Tree } from './tree/Tree.tsx';
import { Dialogs, Toasts } from './ui/Feedback.tsx';
import { toastError } from './ui/feedback.ts';
import { MenuLayer, openMenu } from './ui/Menu.tsx';
import { Palette, paletteOpen } from './ui/Palette.tsx';
import { SignIn } from './ui/SignIn.tsx';
import { StatusBar } from './ui/StatusBar.tsx';
import { hasPanel, leftPane, mainView, narrow, openSearch, panes, setPane, showView, type MainView } from './views.ts';
import { HealthView } from './health/HealthView.tsx';
import { startWarningPolling, warningsMayChange } from './health/model.ts';
import { newNote } from './tree/actions.ts';
import { SearchPane } from './search/SearchPane.tsx';
import { AttachmentView } from './views/AttachmentView.tsx';
import { BannerDialog } from './views/BannerDialog.tsx';
import { PreviewView } from './views/PreviewView.tsx';
import { TrashView } from './views/TrashView.tsx';
import { CommentsView } from './comments/CommentsView.tsx';
import { startPendingPolling } from './comments/model.ts';

type Phase = 'checking' | 'signed-out' | 'ready';

/** The main views the top bar offers (attachments open from the tree). */
const VIEWS: [MainView, 'edit' | 'settings' | 'trash' | 'previewSite' | 'comments' | 'siteHealth'][] = [
  ['editor', 'edit'],
  ['comments', 'comments'],
  ['settings', 'settings'],
  ['trash', 'trash'],
  ['preview', 'previewSite'],
  ['health', 'siteHealth'],
];

/** A deep link: /admin/#/note/<path>, or ?path= / ?edit= from the public site's Edit link. */
function linkedNote(): string | null {
  const hash = decodeURIComponent(location.hash.replace(/^#\/?/, ''));
  if (hash.startsWith('note/')) return hash.slice(5);
  const q = new URLSearchParams(location.search);
  return q.get('path') ?? q.get('edit') ?? q.get('note');
}

function Workspace({ signOut }: { signOut: () => void }) {
  const view = useStore(mainView);
  const p = useStore(panes);
  const isNarrow = useStore(narrow);
  const left = useStore(leftPane);
  const { active } = useStore(tabs);
  useStore(lang);

  useEffect(() => {
    void refreshTree().catch(toastError);
    const linked = linkedNote();
    if (linked) {
      revealPath(linked);
      openNote(linked).catch(toastError);
    }
    let treeTimer: ReturnType<typeof setTimeout> | null = null;
    const stop = startLive({
      onChanged: (path) => {
        noteChangedOnDisk(path);
        if (treeTimer) clearTimeout(treeTimer);
        treeTimer = setTimeout(() => void refreshTree().catch(() => undefined), 300);
        if (path === tabs.get().active) timelineStamp.update((n) => n + 1);
        pokeSync();
        warningsMayChange();
      },
      onSettings: () => void settingsChangedOnServer(),
      onWake: () => {
        void recheckOpenNotes().catch(() => undefined);
        void settingsChangedOnServer();
        void refreshTree().catch(() => undefined);
        pokeSync(0);
      },
      onHide: () => {
        void flushAll();
        void flushPrefs();
      },
      onSignedOut: () => signOut(),
    });
    // spec 8: opening the app runs the sync-on-window-open rule (only while backup is on).
    void startSyncPolling().then(windowOpened);
    const stopPending = startPendingPolling();
    const stopWarnings = startWarningPolling();
    return () => {
      stop();
      stopPending();
      stopWarnings();
      stopSyncPolling();
    };
  }, []);

  useEffect(() => {
    const next = active ? `#/note/${encodeURI(active)}` : '';
    if (location.hash !== next) history.replaceState(null, '', `${location.pathname}${location.search}${next}`);
  }, [active]);

  const main: Record<MainView, () => preact.JSX.Element> = {
    editor: () => <EditorPane />,
    settings: () => <SettingsView signOut={signOut} />,
    trash: () => <TrashView />,
    preview: () => <PreviewView />,
    attachment: () => <AttachmentView />,
    comments: () => <CommentsView />,
    health: () => <HealthView />,
  };
  const panelShown = p.panelOpen && hasPanel(view);
  const unsavedSettings = Object.keys(useStore(drafts)).some(inSettingsForm);
  const navButton = (id: MainView, label: string, unsaved = false) => (
    <button type="button" class={view === id ? 'active' : ''} aria-current={view === id ? 'page' : undefined} onClick={() => showView(id)}>
      {label}
      {unsaved && (
        <span class="unsaved-dot" title={t('unsavedField')} aria-label={t('unsavedField')}>
          •
        </span>
      )}
    </button>
  );
  return (
    <div class={`app${p.treeOpen ? ' tree-open' : ''}${panelShown ? ' panel-open' : ''}${isNarrow ? ' narrow' : ''}`}>
      <a class="skip" href="#main">
        {t('skipToMain')}
      </a>
      <header class="top-bar">
        <button type="button" class="icon" aria-label={t('toggleTree')} aria-pressed={p.treeOpen} title={t('toggleTree')} onClick={() => setPane('treeOpen', !p.treeOpen)}>
          ☰
        </button>
        <strong class="brand">{t('appName')}</strong>
        {isNarrow ? (
          // At phone width the views fold into one menu button instead of a clipped row.
          <nav class="views" aria-label={t('menu')}>
            <button
              type="button"
              class="active views-menu"
              aria-haspopup="menu"
              onClick={(e) =>
                openMenu(
                  e.currentTarget as HTMLElement,
                  VIEWS.map(([id, key]) => ({ label: t(key), run: () => showView(id) })),
                )
              }
            >
              {t(VIEWS.find(([id]) => id === view)?.[1] ?? 'edit')}
              {unsavedSettings && <span class="unsaved-dot">•</span>} ▾
            </button>
          </nav>
        ) : (
          <nav class="views" aria-label={t('menu')}>
            {navButton('editor', t('edit'))}
            {navButton('comments', t('comments'))}
            {navButton('settings', t('settings'), unsavedSettings)}
            {navButton('trash', t('trash'))}
            {navButton('preview', t('previewSite'))}
            {navButton('health', t('siteHealth'))}
          </nav>
        )}
        <span class="grow" />
        <button type="button" class="palette-button" dir="ltr" onClick={() => paletteOpen.set(true)} aria-keyshortcuts="Control+K Meta+K" title={`${t('palette')} (${shortcut('K')})`} aria-label={t('palette')}>
          {shortcut('K')}
        </button>
        {hasPanel(view) && (
          <button type="button" class="icon" aria-label={t('togglePanel')} aria-pressed={p.panelOpen} title={t('togglePanel')} onClick={() => setPane('panelOpen', !p.panelOpen)}>
            ◧
          </button>
        )}
        <button type="button" class="sign-out" onClick={signOut} aria-label={t('signOut')} title={t('signOut')}>
          <span class="sign-out-icon" aria-hidden="true">
            ⎋
          </span>
          <span class="sign-out-label">{t('signOut')}</span>
        </button>
      </header>
      <div class="frame">
        {p.treeOpen && (left.show === 'search' ? <SearchPane /> : <Tree />)}
        {isNarrow && (p.treeOpen || panelShown) && (
          <div
            class="scrim"
            onClick={() => {
              setPane('treeOpen', false);
              setPane('panelOpen', false);
            }}
          />
        )}
        <main id="main" class="main" tabIndex={-1}>
          {main[view]()}
        </main>
        {panelShown && <RightPanel />}
      </div>
      <StatusBar />
      <Palette signOut={signOut} />
      <CollectionsDialog />
      <BannerDialog />
    </div>
  );
}

export function App() {
  const [phase, setPhase] = useState<Phase>('checking');
  useStore(lang);

  const enter = async () => {
    await pullPrefs();
    setPhase('ready');
    // Edits typed while the session had lapsed are saved now.
    void flushAll();
  };

  useEffect(() => {
    api.me().then(
      (me) => (me.admin ? enter() : setPhase('signed-out')),
      () => setPhase('signed-out'),
    );
    return onSignedOut(() => setPhase('signed-out'));
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (phase !== 'ready' || e.defaultPrevented) return;
      const mod = (e.ctrlKey || e.metaKey) && !e.altKey;
      const key = e.key.toLowerCase();
      if (mod && key === 'k') paletteOpen.set(!paletteOpen.get());
      else if (mod && key === 's') void flushAll();
      else if (mod && e.shiftKey && key === 'f') openSearch();
      // Find in note from anywhere: the editor's own Ctrl/Cmd+F handles it when it has focus.
      else if (mod && !e.shiftKey && key === 'f' && mainView.get() === 'editor' && activeNote()) openFindInNote();
      // Browsers keep Ctrl+N for a new window; Alt+N always reaches the app.
      else if ((mod && !e.shiftKey && key === 'n') || (e.altKey && !e.ctrlKey && !e.metaKey && key === 'n')) void newNote('');
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [phase]);

  const signOut = async () => {
    await flushAll();
    await flushPrefs();
    await api.logout().catch(() => undefined);
    location.hash = '';
    location.reload();
  };

  return (
    <>
      {phase === 'checking' && <p class="muted pad">{t('loading')}</p>}
      {phase === 'signed-out' && <SignIn onSignedIn={() => void enter()} />}
      {phase === 'ready' && <Workspace signOut={() => void signOut()} />}
      <Dialogs />
      <Toasts />
      <MenuLayer />
    </>
  );
}
