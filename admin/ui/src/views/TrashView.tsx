// The trash (spec 3.3): each entry with where it came from; restore, erase, empty.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { formatTime, t } from '../i18n.ts';
import { refreshTree } from '../tree/model.ts';
import type { TrashEntry } from '../types.ts';
import { confirmDialog, dismissToastsAbout, toast, toastError } from '../ui/feedback.ts';
import { Sentence } from '../ui/Sentence.tsx';

const nameOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);

export function TrashView() {
  const [list, setList] = useState<TrashEntry[] | null>(null);
  const load = () => api.trash().then((a) => setList(a.entries), toastError);
  useEffect(() => {
    void load();
  }, []);
  const restore = async (entry: TrashEntry) => {
    try {
      const back = await api.restoreTrash(entry.id);
      // The 'moved to the trash · Undo' toast no longer applies.
      dismissToastsAbout(`trash:${entry.id}`);
      toast(t('restoredTo', { path: back.path }));
      await Promise.all([load(), refreshTree()]);
    } catch (err) {
      toastError(err);
    }
  };
  const erase = async (entry: TrashEntry) => {
    if (!(await confirmDialog(t('eraseConfirm', { name: nameOf(entry.path) }), { okLabel: t('erase'), danger: true }))) return;
    await api.eraseTrash(entry.id).then(() => dismissToastsAbout(`trash:${entry.id}`), toastError);
    await load();
  };
  const empty = async () => {
    if (!(await confirmDialog(t('emptyConfirm'), { okLabel: t('emptyTrash'), danger: true }))) return;
    await api.emptyTrash().then(() => list?.forEach((e) => dismissToastsAbout(`trash:${e.id}`)), toastError);
    await load();
  };
  return (
    <section class="page trash-view" aria-labelledby="trash-title" data-testid="trash-view">
      <div class="page-head">
        <h1 id="trash-title">{t('trash')}</h1>
        <span class="grow" />
        <button type="button" class="danger" disabled={!list || list.length === 0} onClick={empty}>
          {t('emptyTrash')}
        </button>
      </div>
      {!list ? (
        <p class="muted">{t('loading')}</p>
      ) : list.length === 0 ? (
        <p class="muted">{t('trashEmpty')}</p>
      ) : (
        <ul class="trash-list">
          {list.map((entry) => (
            <li data-id={entry.id} data-path={entry.path}>
              <span class="trash-name">
                <strong dir="auto">{nameOf(entry.path)}</strong>
                <small class="muted">
                  <Sentence text={t('cameFrom', { path: entry.path })} /> · {t('deletedAt', { time: formatTime(entry.deletedAt) })}
                </small>
              </span>
              <button type="button" onClick={() => void restore(entry)}>
                {t('restoreEntry')}
              </button>
              <button type="button" class="danger" onClick={() => void erase(entry)}>
                {t('erase')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
