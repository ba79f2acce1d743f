// A note's text rendered as its article renders, in a sandboxed frame: no script in
// a note (or in an old revision pulled from a remote) ever runs in the admin's page.
import { useEffect, useState } from 'preact/hooks';
import { fileUrl } from '../api.ts';
import { prefs } from '../prefs.ts';
import { useStore } from '../store.ts';

export function RenderedNote({ path, text, label }: { path: string; text: string; label: string }) {
  const [doc, setDoc] = useState<string | null>(null);
  const { theme } = useStore(prefs);
  useEffect(() => {
    let live = true;
    const dark = document.documentElement.dataset.theme === 'dark';
    void import('./markdown.ts').then((m) => {
      if (live) setDoc(m.articleDocument(m.renderNote(path, text, fileUrl), dark));
    });
    return () => {
      live = false;
    };
  }, [path, text, theme]);
  return <iframe class="rendered" title={label} sandbox="allow-popups allow-popups-to-escape-sandbox" srcdoc={doc ?? ''} />;
}
