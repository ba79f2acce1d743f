// Publishing in one click: the note bar's Publish / Unpublish toggle writes
// `publish:` into the frontmatter through the editor (one undoable step, saved through
// the one write path), and "View on site" appears once visitors can read the page.
import { useEffect, useState } from 'preact/hooks';
import { encodeAddress, noteAddress } from '../../../../shared/model/addresses.ts';
import type { VaultPath } from '../../../../shared/vault-path.ts';
import { t } from '../i18n.ts';
import { useStore } from '../store.ts';
import { isTrue, readKey, setKey } from '../tree/frontmatter.ts';
import { refreshTree } from '../tree/model.ts';
import { toast, toastError } from '../ui/feedback.ts';
import { nameOf, type OpenNote } from './workspace.ts';

export const isPublished = (text: string) => isTrue(readKey(text, 'publish'));

/** The note's public address, on the wire. */
export const siteAddress = (path: string) => encodeAddress(noteAddress(path as VaultPath));

/** Whether a visitor gets the page (asked without the admin's cookie). */
async function isLive(address: string): Promise<boolean> {
  try {
    return (await fetch(address, { credentials: 'omit', cache: 'no-store', redirect: 'follow' })).ok;
  } catch {
    return false;
  }
}

/** Sets `publish:` in the editor (undoable) and saves through the write path. */
export async function setPublished(note: OpenNote, publish: boolean): Promise<void> {
  const text = note.editor.getText();
  if (isPublished(text) === publish) return;
  // The editor's own changes pass its read-only state: the refusal is said before the text changes.
  if (note.session.view.get().readOnly) throw new Error(t('refused_read_only'));
  note.editor.replace(setKey(text, 'publish', publish), true);
  await note.session.flush();
  const v = note.session.view.get();
  if (v.status !== 'saved') throw new Error(v.error ?? t('conflictShort'));
  toast(t(publish ? 'nowPublished' : 'nowDraft', { name: nameOf(note.path) }));
  void refreshTree();
}

const LIVE_POLL_MS = 500;
const LIVE_WAIT_MS = 30_000;

export function PublishControls({ note }: { note: OpenNote }) {
  useStore(note.edits);
  const { readOnly } = useStore(note.session.view);
  const published = isPublished(note.editor.getText());
  const [live, setLive] = useState<string | null>(null);
  const address = siteAddress(note.path);

  // A published note's page becomes live once the site has rebuilt it: ask until it answers.
  useEffect(() => {
    setLive(null);
    if (!published) return;
    let stop = false;
    const started = Date.now();
    const ask = async () => {
      while (!stop && Date.now() - started < LIVE_WAIT_MS) {
        if (await isLive(address)) {
          if (!stop) setLive(address);
          return;
        }
        await new Promise((r) => setTimeout(r, LIVE_POLL_MS));
      }
    };
    void ask();
    return () => {
      stop = true;
    };
  }, [published, address]);

  return (
    <>
      <span class={`publish-state ${published ? 'is-published' : 'is-draft'}`} data-testid="publish-state">
        {published ? t('published') : t('draft')}
      </span>
      <button type="button" aria-pressed={published} disabled={readOnly} data-testid="publish-toggle" onClick={() => setPublished(note, !published).catch(toastError)}>
        {published ? t('unpublish') : t('publish')}
      </button>
      {published && live && (
        <a class="button-link" href={live} target="_blank" rel="noopener" data-testid="view-on-site">
          {t('viewOnSite')} ↗
        </a>
      )}
    </>
  );
}
