// A note's text rendered as its article renders, in a sandboxed frame: no script in
// a note (or in an old revision pulled from a remote) ever runs (no allow-scripts);
// same-origin only so its images can carry the admin's cookie.
import { useEffect, useState } from 'preact/hooks';
import { fileUrl } from '../api.ts';
import { prefs } from '../prefs.ts';
import { useStore } from '../store.ts';
import { entries } from '../tree/model.ts';
import type { TreeEntry } from '../types.ts';
import type { Links } from './markdown.ts';

/** Obsidian resolves a link by path, else by file name anywhere in the vault. */
function resolver(list: TreeEntry[], kind: TreeEntry['kind'], withExtension: (t: string) => string[]) {
  const byPath = new Map<string, string>();
  const byName = new Map<string, string>();
  for (const e of list) {
    if (e.kind !== kind) continue;
    byPath.set(e.path.toLowerCase(), e.path);
    const name = e.path.slice(e.path.lastIndexOf('/') + 1).toLowerCase();
    if (!byName.has(name)) byName.set(name, e.path);
  }
  return (target: string): string | null => {
    for (const t of withExtension(target.trim().replace(/^\/+/, '').toLowerCase())) {
      const hit = byPath.get(t) ?? byName.get(t);
      if (hit) return hit;
    }
    return null;
  };
}

function linksFor(list: TreeEntry[], address: (p: string) => string): Links {
  const note = resolver(list, 'note', (t) => (/\.(md|markdown)$/.test(t) ? [t] : [`${t}.md`, `${t}.markdown`, t]));
  const attachment = resolver(list, 'attachment', (t) => [t]);
  return {
    note: (target) => {
      const p = note(target);
      return p ? address(p) : null;
    },
    attachment: (target) => {
      const p = attachment(target);
      return p ? fileUrl(p) : null;
    },
  };
}

export function RenderedNote({ path, text, label }: { path: string; text: string; label: string }) {
  const [doc, setDoc] = useState<string | null>(null);
  const { theme } = useStore(prefs);
  const list = useStore(entries);
  useEffect(() => {
    let live = true;
    const dark = document.documentElement.dataset.theme === 'dark';
    void import('./markdown.ts').then((m) => {
      if (live) setDoc(m.articleDocument(m.renderNote(path, text, linksFor(list, m.noteAddress)), dark));
    });
    return () => {
      live = false;
    };
  }, [path, text, theme, list]);
  return <iframe class="rendered" title={label} sandbox="allow-same-origin allow-popups allow-popups-to-escape-sandbox" srcdoc={doc ?? ''} data-testid="rendered-note" />;
}
