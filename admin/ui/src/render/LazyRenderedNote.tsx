// The rendered note, loaded the first time one is shown: it brings the note renderer and
// sanitize-html (with postcss, about 95 KB gzipped), which the first screen never needs.
import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n.ts';
import { toastError } from '../ui/feedback.ts';

type Module = typeof import('./RenderedNote.tsx');
let loading: Promise<Module> | null = null;
let loaded: Module | null = null;

export function LazyRenderedNote(props: { path: string; text: string; label: string }) {
  const [mod, setMod] = useState<Module | null>(loaded);
  useEffect(() => {
    if (mod) return;
    let live = true;
    (loading ??= import('./RenderedNote.tsx')).then(
      (m) => {
        loaded = m;
        if (live) setMod(m);
      },
      (err: unknown) => {
        // Asked again the next time a note is shown (the server may have been updated meanwhile).
        loading = null;
        if (live) toastError(err);
      },
    );
    return () => {
      live = false;
    };
  }, [mod]);
  return mod ? <mod.RenderedNote {...props} /> : <p class="muted pad">{t('loading')}</p>;
}
