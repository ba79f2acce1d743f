// spec D.5: on a note, 'Collections…' ticks memberships and writes the `tags:` (or
// `folders:`) line; a membership that comes from the note's folder shows ticked and
// cannot be unticked there.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { openNoteAt } from '../editor/workspace.ts';
import { t } from '../i18n.ts';
import { Store, useStore } from '../store.ts';
import { toast, toastError } from '../ui/feedback.ts';
import { Modal } from '../ui/Modal.tsx';
import { baseName } from './actions.ts';
import { declaredCollections, membershipOf, type Collection } from './collections.ts';
import { readKey, readList, setKey } from './frontmatter.ts';

const target = new Store<string | null>(null);

export function openCollectionsDialog(path: string): void {
  target.set(path);
}

interface Loaded {
  content: string;
  mtimeMs: number;
  hash: string;
  rows: { collection: Collection; member: boolean; viaFolder: boolean }[];
}

/**
 * The new frontmatter: collection memberships added or removed, every other value
 * kept in order. A note that already lists `folders:` keeps using it (collection
 * slugs); otherwise memberships are tags.
 */
export function withMemberships(content: string, rows: Loaded['rows'], ticked: Set<string>): string {
  const useFolders = readKey(content, 'folders') !== undefined;
  const key = useFolders ? 'folders' : 'tags';
  const valueOf = (c: Collection) => (useFolders ? c.slug : c.tag);
  const current = readList(content, key);
  const ours = new Map(rows.map((r) => [valueOf(r.collection).toLowerCase(), r]));
  const kept = current.filter((v) => {
    const row = ours.get(v.toLowerCase());
    return !row || ticked.has(row.collection.tag.toLowerCase());
  });
  const have = new Set(kept.map((v) => v.toLowerCase()));
  for (const r of rows) {
    const value = valueOf(r.collection);
    if (ticked.has(r.collection.tag.toLowerCase()) && !r.viaFolder && !have.has(value.toLowerCase())) kept.push(value);
  }
  return setKey(content, key, kept);
}

export function CollectionsDialog() {
  const path = useStore(target);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [ticked, setTicked] = useState<Set<string>>(new Set());
  useEffect(() => {
    setLoaded(null);
    if (!path) return;
    let live = true;
    void (async () => {
      try {
        await openNoteAt(path)?.session.flush();
        const [note, collections] = await Promise.all([api.note(path), declaredCollections()]);
        if (!live) return;
        const rows = membershipOf(path, note.content, collections);
        setLoaded({ content: note.content, mtimeMs: note.mtimeMs, hash: note.hash, rows });
        setTicked(new Set(rows.filter((r) => r.member).map((r) => r.collection.tag.toLowerCase())));
      } catch (err) {
        toastError(err);
        target.set(null);
      }
    })();
    return () => {
      live = false;
    };
  }, [path]);
  if (!path) return null;
  const close = () => target.set(null);
  const save = async () => {
    if (!loaded) return;
    try {
      const next = withMemberships(loaded.content, loaded.rows, ticked);
      const open = openNoteAt(path);
      if (open) await open.session.applyRestore(next);
      else await api.saveNote(path, next, loaded.mtimeMs, { baseHash: loaded.hash });
      toast(t('membershipsSaved'));
      close();
    } catch (err) {
      toastError(err);
    }
  };
  return (
    <Modal title={t('collectionsTitle', { name: baseName(path) })} onClose={close}>
      {!loaded ? (
        <p class="muted">{t('loading')}</p>
      ) : loaded.rows.length === 0 ? (
        <p class="muted">{t('noCollections')}</p>
      ) : (
        <ul class="checklist">
          {loaded.rows.map((r) => {
            const key = r.collection.tag.toLowerCase();
            return (
              <li>
                <label>
                  <input
                    type="checkbox"
                    checked={r.viaFolder || ticked.has(key)}
                    disabled={r.viaFolder}
                    onChange={(e) => {
                      const next = new Set(ticked);
                      if ((e.currentTarget as HTMLInputElement).checked) next.add(key);
                      else next.delete(key);
                      setTicked(next);
                    }}
                  />
                  <span class="mark" aria-hidden="true">
                    {r.collection.icon}
                  </span>{' '}
                  {r.collection.title}
                  {r.viaFolder && <small class="muted"> ({t('fromFolder')})</small>}
                </label>
              </li>
            );
          })}
        </ul>
      )}
      <div class="actions">
        <button type="button" onClick={close}>
          {t('cancel')}
        </button>
        <button type="button" class="primary" disabled={!loaded || loaded.rows.length === 0} onClick={save}>
          {t('saveMemberships')}
        </button>
      </div>
    </Modal>
  );
}
