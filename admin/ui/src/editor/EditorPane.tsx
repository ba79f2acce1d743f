// The editor pane: tabs of open notes, the save state, the resolution strip of
// spec 3.6, and the revision a History row asked to see.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { formatTime, shortcut, t } from '../i18n.ts';
import { restoreShown } from '../panel/restore.ts';
import { commitTitle, shownRevision, type ShownRevision } from '../panel/timeline.ts';
import { api } from '../api.ts';
import { DiffView } from '../diff/DiffView.tsx';
import { LazyRenderedNote } from '../render/LazyRenderedNote.tsx';
import type { EditorView } from '@codemirror/view';
import { PublishControls } from './PublishControls.tsx';
import { IMAGE_TYPES, insertImages } from './vault-handlers.ts';
import { NoteWarnings } from '../health/NoteWarnings.tsx';
import { newNote } from '../tree/actions.ts';
import { useStore } from '../store.ts';
import { toast, toastError } from '../ui/feedback.ts';
import { showPanelSection } from '../views.ts';
import { NO_SESSION, type NoteSession, type SaveStatus } from './session.ts';
import { activeNote, closeTab, cursorOffset, cursorRequest, nameOf, openNoteAt, saveWhereMoved, tabs, type OpenNote } from './workspace.ts';
import { Sentence } from '../ui/Sentence.tsx';
import { VaultPath } from '../ui/VaultPath.tsx';

const STATUS_KEY: Record<SaveStatus, 'saved' | 'saving' | 'unsaved' | 'conflictShort' | 'saveFailed'> = {
  saved: 'saved',
  saving: 'saving',
  dirty: 'unsaved',
  conflict: 'conflictShort',
  error: 'saveFailed',
};

export function SaveState({ session }: { session: NoteSession }) {
  const v = useStore(session.view);
  const text = v.status === 'error' ? t('saveFailed', { error: v.error ?? '' }) : t(STATUS_KEY[v.status]);
  return (
    <span class={`save-state ${v.status}`} data-state={v.status}>
      {text}
    </span>
  );
}

/**
 * The disk's text while the strip shows (the moved note's, when it moved), so the two texts
 * can be compared before the choice.
 */
function useDiskText(note: OpenNote, diskMtimeMs: number | null | undefined, movedTo: string | null | undefined): string | null {
  const [disk, setDisk] = useState<string | null>(null);
  useEffect(() => {
    setDisk(null);
    const at = diskMtimeMs === null ? movedTo : diskMtimeMs === undefined ? null : note.path;
    if (!at) return;
    let live = true;
    api.note(at).then(
      (d) => live && setDisk(d.content),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [note, diskMtimeMs, movedTo]);
  return disk;
}

function ConflictStrip({ note }: { note: OpenNote }) {
  const v = useStore(note.session.view);
  useStore(note.edits);
  const [busy, setBusy] = useState(false);
  const [showDiff, setShowDiff] = useState(true);
  const disk = useDiskText(note, v.conflict?.diskMtimeMs, v.conflict?.movedTo);
  if (!v.conflict) return null;
  const gone = v.conflict.diskMtimeMs === null;
  const movedTo = gone ? (v.conflict.movedTo ?? null) : null;
  const run = (fn: () => Promise<unknown>, done: string) => async () => {
    setBusy(true);
    // The writing goes on in the editor at once; the strip is gone before the answer comes.
    note.editor.view.focus();
    try {
      await fn();
      // A save refused again (the moved note changed too) shows the strip again, not a success.
      if (!note.session.view.get().conflict) toast(done);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="conflict-strip" role="alert" data-testid="conflict-strip">
      <span class="strip-text">
        <Sentence text={movedTo ? t('conflictMoved', { path: movedTo }) : gone ? t('conflictDeleted') : t('conflictTitle')} />
      </span>
      <span class="strip-actions">
        {movedTo && (
          <button type="button" class="primary" disabled={busy} onClick={run(() => saveWhereMoved(note, movedTo), t('savedWhereMoved', { path: movedTo }))}>
            {t('saveWhereMoved')}
          </button>
        )}
        {/* A note gone from disk is made again at its old path: the button says so. */}
        <button type="button" class={movedTo ? undefined : 'primary'} disabled={busy} onClick={run(() => note.session.keepMine(), gone ? t('keptMineAgain', { path: note.path }) : t('keptMine'))}>
          <Sentence text={gone ? t('keepMineAgain', { path: note.path }) : t('keepMine')} />
        </button>
        {!gone && (
          <button type="button" disabled={busy} onClick={run(() => note.session.useDisk(), t('usedDisk', { key: shortcut('Z') }))}>
            {t('useDisk')}
          </button>
        )}
        {disk !== null && (
          <button type="button" aria-expanded={showDiff} onClick={() => setShowDiff(!showDiff)}>
            {showDiff ? t('hideDiff') : t('showDiff')}
          </button>
        )}
      </span>
      {disk !== null && showDiff && (
        <DiffView before={disk} after={note.editor.getText()} label={t('diffFromTo', { from: t('diffOther'), to: t('diffMine') })} testId="conflict-diff" />
      )}
    </div>
  );
}

/** A note whose file no one may write: the editor takes no typing until it is writable again. */
function ReadOnlyStrip({ note }: { note: OpenNote }) {
  const v = useStore(note.session.view);
  if (!v.readOnly) return null;
  return (
    <div class="read-only-strip" role="status" data-testid="read-only-strip">
      <span class="strip-text">{t('readOnlyNote')}</span>
      <span class="strip-actions">
        <button type="button" onClick={() => void note.session.recheck()}>
          {t('checkAgain')}
        </button>
      </span>
    </div>
  );
}

function RevisionView({ shown }: { shown: ShownRevision }) {
  const row = shown.row;
  const [changes, setChanges] = useState(false);
  const current = openNoteAt(shown.notePath)?.editor.getText() ?? null;
  const what =
    row.kind === 'commit'
      ? `${t('commit')} ${row.revision.sha.slice(0, 7)} · ${formatTime(row.revision.date)} · ${commitTitle(row.revision.message)}`
      : `${t('version')} · ${t('savedAtTime', { time: formatTime(row.version.savedAt) })} · ${row.version.reason}`;
  return (
    <section class="revision" aria-label={t('showing', { what })} data-testid="revision-view">
      <div class="revision-bar">
        <span class="grow">{t('showing', { what })}</span>
        {current !== null && (
          <span class="segmented" role="group">
            <button type="button" aria-pressed={!changes} onClick={() => setChanges(false)}>
              {t('showRendered')}
            </button>
            <button type="button" aria-pressed={changes} data-testid="show-changes" onClick={() => setChanges(true)}>
              {t('showChanges')}
            </button>
          </span>
        )}
        <button type="button" class="primary" onClick={() => void restoreShown(shown)}>
          {t('restore')}
        </button>
        <button type="button" onClick={() => shownRevision.set(null)}>
          {t('closeRevision')}
        </button>
      </div>
      {changes && current !== null ? (
        <div class="revision-diff">
          <DiffView before={shown.content} after={current} label={t('diffFromTo', { from: what, to: t('diffCurrent') })} testId="revision-diff" />
        </div>
      ) : (
        <LazyRenderedNote path={row.kind === 'commit' ? row.revision.path : shown.notePath} text={shown.content} label={what} />
      )}
    </section>
  );
}

function Tabs() {
  const { paths, active } = useStore(tabs);
  if (paths.length === 0) return null;
  return (
    <div class="tabs" role="tablist" aria-label={t('files')}>
      {paths.map((path) => (
        <div class={`tab${path === active ? ' active' : ''}`} key={path}>
          <button
            type="button"
            role="tab"
            aria-selected={path === active}
            title={path}
            onClick={() => tabs.update((s) => ({ ...s, active: path }))}
          >
            <bdi>{nameOf(path)}</bdi>
            {openNoteAt(path) && <TabDot session={openNoteAt(path)!.session} />}
          </button>
          <button type="button" class="icon" aria-label={t('closeTab', { name: nameOf(path) })} onClick={() => void closeTab(path)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

function TabDot({ session }: { session: NoteSession }) {
  const v = useStore(session.view);
  return v.status === 'saved' ? null : <span class={`dot ${v.status}`} aria-hidden="true" />;
}

/** What to do first when no note is open: open one, create one, or look at the site. */
function EmptyEditor() {
  return (
    <div class="empty-editor" data-testid="empty-editor">
      <h1>{t('emptyEditorTitle')}</h1>
      <p>{t('emptyEditorOpen', { key: shortcut('K') })}</p>
      <p class="empty-actions">
        <button type="button" class="primary" onClick={() => void newNote('')}>
          {t('emptyEditorNew')}
        </button>
        <a class="button" href="/" target="_blank" rel="noopener">
          {t('emptyEditorSite')} ↗
        </a>
      </p>
    </div>
  );
}

export function EditorPane() {
  useStore(tabs);
  const shown = useStore(shownRevision);
  const request = useStore(cursorRequest);
  const note = activeNote();
  const readOnly = useStore(note?.session.view ?? NO_SESSION).readOnly;
  const [preview, setPreview] = useState(false);
  const hostRef = useRef<HTMLDivElement>(null);

  // A note opened at a place (a new note's body, a search match, a heading) shows the editor.
  useLayoutEffect(() => {
    if (!request || request.path !== note?.path) return;
    if (shown) shownRevision.set(null);
    if (preview) setPreview(false);
  }, [request, note]);

  // Before paint: a note opened at a place has the cursor there before the next keystroke.
  useLayoutEffect(() => {
    const container = hostRef.current;
    if (!container) return;
    for (const child of [...container.children]) if (child !== note?.host) child.remove();
    if (note && note.host.parentElement !== container) container.appendChild(note.host);
    if (note && !shown) note.editor.view.requestMeasure();
    if (note && request && request.path === note.path && !shown && !preview) {
      cursorRequest.set(null);
      note.editor.focusAt(cursorOffset(note.editor.view.state.doc, request.target));
    }
  }, [note, shown, preview, request]);

  if (!note) {
    return (
      <section class="editor-pane empty">
        {shown ? <RevisionView shown={shown} /> : <EmptyEditor />}
      </section>
    );
  }
  return (
    <section class="editor-pane" aria-label={nameOf(note.path)}>
      <Tabs />
      <div class="note-bar">
        <VaultPath class="note-path" path={note.path} />
        <span class="grow" />
        <PublishControls note={note} />
        <SaveState session={note.session} />
        <ImageButton note={note} disabled={preview || Boolean(shown) || readOnly} />
        <button type="button" aria-pressed={preview} onClick={() => setPreview(!preview)}>
          {preview ? t('edit') : t('preview')}
        </button>
        <button type="button" onClick={() => showPanelSection('history')}>
          {t('history')}
        </button>
      </div>
      <NoteWarnings path={note.path} />
      <ReadOnlyStrip note={note} />
      <ConflictStrip note={note} />
      {shown && <RevisionView shown={shown} />}
      {preview && !shown && <LazyRenderedNote path={note.path} text={note.editor.getText()} label={nameOf(note.path)} />}
      <div class="editor-container" ref={hostRef} hidden={Boolean(shown) || preview} />
    </section>
  );
}

/** Adds images beside paste and drop: a file picker whose images go where the cursor is. */
function ImageButton({ note, disabled }: { note: { path: string; editor: { view: EditorView } }; disabled: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const picked = () => {
    const files = [...(input.current?.files ?? [])];
    if (input.current) input.current.value = '';
    const view = note.editor.view;
    if (files.length) void insertImages(view, note.path, files, view.state.selection.main.head);
  };
  return (
    <>
      <input ref={input} type="file" accept={IMAGE_TYPES.join(',')} multiple hidden onChange={picked} data-testid="image-input" />
      <button type="button" disabled={disabled} onClick={() => input.current?.click()} title={t('addImageTitle')} data-testid="image-button">
        {t('addImage')}
      </button>
    </>
  );
}
