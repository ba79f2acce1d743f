// Backlinks: the notes whose links resolve to the open note, each with the
// line the link is on; a row opens that note at that line.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { openNote, tabs } from '../editor/workspace.ts';
import { t } from '../i18n.ts';
import { isolatedLinks } from '../isolate.ts';
import { useStore } from '../store.ts';
import { vaultStamp } from '../tree/model.ts';
import type { Backlink } from '../types.ts';
import { toastError } from '../ui/feedback.ts';
import { showView } from '../views.ts';
import { PanelSection } from './PanelSection.tsx';

function List({ path }: { path: string }) {
  const stamp = useStore(vaultStamp);
  const [links, setLinks] = useState<{ path: string; list: Backlink[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.backlinks(path).then(
      (a) => live && (setLinks({ path, list: a.backlinks }), setError(null)),
      (err: Error) => live && setError(err.message),
    );
    return () => {
      live = false;
    };
  }, [path, stamp]);
  if (error) return <p class="error-line">{error}</p>;
  if (!links || links.path !== path) return <p class="muted">{t('loading')}</p>;
  if (links.list.length === 0) return <p class="muted">{t('noBacklinks')}</p>;
  return (
    <ul class="backlinks" data-testid="backlinks">
      {links.list.map((b) => (
        <li>
          <button
            type="button"
            class="link-row"
            data-path={b.path}
            data-line={b.line}
            onClick={() => {
              showView('editor');
              openNote(b.path, { cursor: { line: b.line } }).catch(toastError);
            }}
          >
            <span class="backlink-title" dir="auto">
              {b.title}
            </span>
            <span class="backlink-context muted" dir="auto">
              {isolatedLinks(b.context)}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

export function BacklinksSection() {
  const { active } = useStore(tabs);
  return (
    <PanelSection id="backlinks" title={t('backlinks')}>
      {active ? <List path={active} /> : null}
    </PanelSection>
  );
}
