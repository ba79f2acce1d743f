// A note's text rendered as its article renders, in a sandboxed frame: no script in
// a note (or in an old revision pulled from a remote) ever runs (no allow-scripts);
// same-origin only so its images can carry the admin's cookie and the site's stylesheets load.
import { drawingExports, isDrawingTarget } from '../../../../shared/wikilinks.ts';
import { useEffect, useState } from 'preact/hooks';
import { api, fileUrl } from '../api.ts';
import { prefs } from '../prefs.ts';
import { sameName } from '../../../../shared/vault-names.ts';
import { useStore } from '../store.ts';
import { entries } from '../tree/model.ts';
import type { TreeEntry } from '../types.ts';
import { articleDocument, noteAddress, previewHtml, type Links, type NotePreview } from './preview-document.ts';

/** Typing settles this long before the server renders the text again. */
const SETTLE_MS = 120;

/** Obsidian resolves a link by path, else by file name anywhere in the vault. */
function resolver(list: TreeEntry[], kind: TreeEntry['kind'], withExtension: (t: string) => string[]) {
  const byPath = new Map<string, string>();
  const byName = new Map<string, string>();
  for (const e of list) {
    if (e.kind !== kind) continue;
    byPath.set(sameName(e.path), e.path);
    const name = sameName(e.path.slice(e.path.lastIndexOf('/') + 1));
    if (!byName.has(name)) byName.set(name, e.path);
  }
  return (target: string): string | null => {
    for (const t of withExtension(sameName(target.trim().replace(/^\/+/, '')))) {
      const hit = byPath.get(t) ?? byName.get(t);
      if (hit) return hit;
    }
    return null;
  };
}

function linksFor(list: TreeEntry[]): Links {
  const note = resolver(list, 'note', (t) => (/\.(md|markdown)$/.test(t) ? [t] : [`${t}.md`, `${t}.markdown`, t]));
  // An Excalidraw drawing shows as the picture exported beside it, as on the site.
  const attachment = resolver(list, 'attachment', (t) => (isDrawingTarget(t) ? drawingExports(t) : [t]));
  return {
    note: (target) => {
      const p = note(target);
      return p ? noteAddress(p) : null;
    },
    attachment: (target) => {
      const p = attachment(target);
      return p ? fileUrl(p) : null;
    },
  };
}

export function RenderedNote({ path, text, label }: { path: string; text: string; label: string }) {
  const [preview, setPreview] = useState<NotePreview | null>(null);
  const list = useStore(entries);
  const { theme } = useStore(prefs);
  useEffect(() => {
    let live = true;
    // The first render at once; while typing, once the keys pause.
    const timer = setTimeout(
      () => {
        api.preview(path, text).then(
          (p) => live && setPreview(p),
          () => undefined, // offline or signed out: the last preview stays
        );
      },
      preview ? SETTLE_MS : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [path, text]);
  const doc = preview ? articleDocument(preview, previewHtml(preview, linksFor(list)), theme === 'auto' ? null : theme) : '';
  return <iframe class="rendered" title={label} sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox" srcdoc={doc} data-testid="rendered-note" />;
}
