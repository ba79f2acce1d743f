// The Comments view (CONTRACT §8): the queue of pending comments and mentions, newest
// first, filtered by note; each with Approve, Reject, Spam, Delete and Reply.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { openNote } from '../editor/workspace.ts';
import { t } from '../i18n.ts';
import { useStore } from '../store.ts';
import type { QueueItem } from '../types.ts';
import { toastError } from '../ui/feedback.ts';
import { showView } from '../views.ts';
import { CommentCard } from './CommentCard.tsx';
import { commentsStamp, noteName, pendingCount } from './model.ts';

export function CommentsView() {
  const stamp = useStore(commentsStamp);
  const count = useStore(pendingCount);
  const [items, setItems] = useState<QueueItem[] | null>(null);
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [note, setNote] = useState('');
  useEffect(() => {
    api.commentQueue().then((a) => {
      setItems(a.items);
      pendingCount.set(a.items.length);
    }, toastError);
  }, [stamp, count]);
  useEffect(() => {
    api.settings().then((s) => setEnabled(s.comments?.enabled === true), () => setEnabled(null));
  }, []);
  const notes = [...new Set((items ?? []).map((i) => i.note))].sort((a, b) => noteName(a).localeCompare(noteName(b)));
  const shown = (items ?? []).filter((i) => !note || i.note === note);
  const open = (path: string) => {
    showView('editor');
    openNote(path).catch(toastError);
  };
  return (
    <section class="page comments-view" aria-labelledby="comments-title" data-testid="comments-view">
      <div class="page-head">
        <h1 id="comments-title">{t('comments')}</h1>
        <span class="grow" />
        <label class="inline-field">
          <span>{t('filterByNote')}</span>
          <select name="note" value={note} onChange={(e) => setNote((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">{t('allNotes')}</option>
            {notes.map((p) => (
              <option value={p}>{noteName(p)}</option>
            ))}
          </select>
        </label>
      </div>
      {enabled === false && <p class="strip-note">{t('commentsOff')}</p>}
      <h2 class="section-title">{t('commentsQueue')}</h2>
      {!items ? (
        <p class="muted">{t('loading')}</p>
      ) : shown.length === 0 ? (
        <p class="muted">{t('commentsNone')}</p>
      ) : (
        <ul class="comment-list" data-testid="comment-queue">
          {shown.map((item) => (
            <CommentCard key={item.id} item={item} showNote onOpenNote={open} />
          ))}
        </ul>
      )}
    </section>
  );
}
