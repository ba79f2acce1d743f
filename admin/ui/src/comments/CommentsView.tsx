// The Comments view (CONTRACT §8, §15): the queue of pending comments and mentions, newest
// first, filtered by note, a page of 50 at a time (10,000 at once once took 28 s to show);
// each with Approve, Reject, Spam, Delete and Reply.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { openNote } from '../editor/workspace.ts';
import { t } from '../i18n.ts';
import { useStore } from '../store.ts';
import type { QueueItem } from '../types.ts';

/** Items a page of the queue holds (CONTRACT §15). */
const QUEUE_PAGE = 50;
import { toastError } from '../ui/feedback.ts';
import { showView } from '../views.ts';
import { CommentCard } from './CommentCard.tsx';
import { commentsStamp, noteName, pendingCount } from './model.ts';

export function CommentsView() {
  const stamp = useStore(commentsStamp);
  const count = useStore(pendingCount);
  const [items, setItems] = useState<QueueItem[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [total, setTotal] = useState(0);
  const [more, setMore] = useState(false);
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [note, setNote] = useState('');
  /** Which list is shown: the queue, or what readers see (approved), both paged. */
  const [list, setList] = useState<'pending' | 'approved'>('pending');
  const status = list === 'approved' ? ('approved' as const) : undefined;
  /** Notes met in the pages read so far: the filter's choices. */
  const [notes, setNotes] = useState<string[]>([]);
  const meet = (page: QueueItem[]) => setNotes((known) => [...new Set([...known, ...page.map((i) => i.note)])].sort((a, b) => noteName(a).localeCompare(noteName(b))));
  useEffect(() => {
    let current = true;
    api.commentQueue(note || undefined, undefined, status).then((a) => {
      if (!current) return;
      setItems(a.items);
      setNext(a.next);
      setTotal(a.total);
      meet(a.items);
      if (!note && !status) pendingCount.set(a.total);
    }, toastError);
    return () => {
      current = false;
    };
  }, [stamp, count, note, list]);
  useEffect(() => {
    api.settings().then((s) => setEnabled(s.comments?.enabled === true), () => setEnabled(null));
  }, []);
  const showMore = () => {
    if (!next || more) return;
    setMore(true);
    api
      .commentQueue(note || undefined, next, status)
      .then((a) => {
        setItems((shown) => [...(shown ?? []), ...a.items]);
        setNext(a.next);
        meet(a.items);
      }, toastError)
      .finally(() => setMore(false));
  };
  // Another list: its first page replaces the cards (a refresh of the same list keeps them until it answers).
  const switchTo = (next: 'pending' | 'approved') => {
    if (next === list) return;
    setItems(null);
    setList(next);
  };
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
            {(note && !notes.includes(note) ? [note, ...notes] : notes).map((p) => (
              <option value={p}>{noteName(p)}</option>
            ))}
          </select>
        </label>
      </div>
      {enabled === false && <p class="strip-note">{t('commentsOff')}</p>}
      <div class="segmented" role="group" aria-label={t('comments')}>
        <button type="button" aria-pressed={list === 'pending'} onClick={() => switchTo('pending')} data-testid="list-pending">
          {t('commentsQueue')}
        </button>
        <button type="button" aria-pressed={list === 'approved'} onClick={() => switchTo('approved')} data-testid="list-approved">
          {t('commentsApproved')}
        </button>
      </div>
      {!items ? (
        <p class="muted">{t('loading')}</p>
      ) : items.length === 0 ? (
        <p class="muted">{list === 'approved' ? t('commentsNoneApproved') : t('commentsNone')}</p>
      ) : (
        <>
          <ul class="comment-list" data-testid="comment-queue">
            {items.map((item) => (
              <CommentCard key={item.id} item={item} showNote onOpenNote={open} />
            ))}
          </ul>
          <p class="queue-more muted" data-testid="queue-more">
            {t('queueShown', { shown: items.length, total })}
            {next && (
              <button type="button" disabled={more} onClick={showMore}>
                {t('queueMore', { count: Math.min(QUEUE_PAGE, total - items.length) })}
              </button>
            )}
          </p>
        </>
      )}
    </section>
  );
}
