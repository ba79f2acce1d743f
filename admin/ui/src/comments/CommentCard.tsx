// One comment or mention with the owner's actions: Approve, Reject, Spam, Delete and,
// for a comment, Reply (shown as the site's author, approved at once). Every string a
// visitor or another site wrote is shown as text (Preact escapes it); nothing of theirs
// is ever handed to innerHTML.
import { useState } from 'preact/hooks';
import { formatTime, t, type StringKey } from '../i18n.ts';
import type { CommentItem, MentionItem, ModerationAction } from '../types.ts';
import { confirmDialog, toast, toastError } from '../ui/feedback.ts';
import { moderate, noteName, reply } from './model.ts';

type Item = (CommentItem & { type: 'comment' }) | (MentionItem & { type: 'mention' });

const STATUS: Record<CommentItem['status'], StringKey> = { pending: 'statusPending', approved: 'statusApproved', rejected: 'statusRejected', spam: 'statusSpam' };
const KIND: Record<MentionItem['kind'], StringKey> = { reply: 'kindReply', like: 'kindLike', repost: 'kindRepost', mention: 'kindMention' };

function safeHref(url: string | null): string | undefined {
  return url && /^https?:\/\//i.test(url) ? url : undefined;
}

export function CommentCard({ item, showNote, onOpenNote }: { item: Item; showNote?: boolean; onOpenNote?: (path: string) => void }) {
  const [busy, setBusy] = useState(false);
  const [replying, setReplying] = useState(false);
  const [text, setText] = useState('');
  const who = item.type === 'comment' ? item.name : (item.author.name ?? item.source);
  const act = async (action: ModerationAction) => {
    if (action === 'delete' && !(await confirmDialog(t('deleteCommentConfirm', { name: who }), { okLabel: t('deleteComment'), danger: true }))) return;
    setBusy(true);
    try {
      await moderate(item.id, action);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };
  const send = async (e: Event) => {
    e.preventDefault();
    if (!text.trim()) return;
    setBusy(true);
    try {
      await reply(item.id, text);
      setText('');
      setReplying(false);
      toast(t('replySent'));
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };
  const actions: [ModerationAction, StringKey][] = [
    ['approve', 'approve'],
    ['reject', 'reject'],
    ['spam', 'spam'],
    ['delete', 'deleteComment'],
  ];
  return (
    <li class={`comment-card status-${item.status}`} data-id={item.id} data-type={item.type} data-status={item.status}>
      <div class="comment-card-head">
        <strong class="comment-who" dir="auto">
          {item.type === 'comment' && item.author ? t('byAuthor') : who}
        </strong>
        {item.type === 'mention' && <span class="comment-kind">{t(KIND[item.kind])}</span>}
        <span class={`comment-status status-${item.status}`}>{t(STATUS[item.status])}</span>
        <time class="muted small" dateTime={item.date}>
          {formatTime(item.date)}
        </time>
      </div>
      <div class="comment-card-meta muted small">
        {showNote && (
          <button type="button" class="link-button" onClick={() => onOpenNote?.(item.note)} title={item.note}>
            {t('onNote', { title: noteName(item.note) })}
          </button>
        )}
        {item.type === 'comment' && item.email && <span dir="ltr">{item.email}</span>}
        {item.type === 'comment' && safeHref(item.website) && (
          <a href={safeHref(item.website)} target="_blank" rel="noopener noreferrer nofollow" dir="ltr">
            {item.website}
          </a>
        )}
        {item.type === 'mention' && (
          <a href={safeHref(item.source)} target="_blank" rel="noopener noreferrer nofollow" dir="ltr">
            {item.source}
          </a>
        )}
      </div>
      <p class="comment-text" dir="auto">
        {item.type === 'comment' ? item.body : item.content}
      </p>
      <div class="comment-actions">
        {actions
          .filter(([action]) => !(action === 'approve' && item.status === 'approved'))
          .map(([action, label]) => (
            <button type="button" class={action === 'delete' ? 'danger' : action === 'approve' ? 'primary' : ''} disabled={busy} data-action={action} onClick={() => void act(action)}>
              {t(label)}
            </button>
          ))}
        {item.type === 'comment' && !replying && (
          <button type="button" disabled={busy} data-action="reply" onClick={() => setReplying(true)}>
            {t('replyAction')}
          </button>
        )}
      </div>
      {replying && (
        <form class="comment-reply" onSubmit={send}>
          <label>
            <span class="sr-only">{t('replyAction')}</span>
            <textarea rows={3} dir="auto" value={text} maxLength={5000} placeholder={t('replyPlaceholder')} readOnly={busy} onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)} />
          </label>
          <div class="comment-actions">
            <button type="submit" class="primary" disabled={busy || !text.trim()}>
              {t('sendReply')}
            </button>
            <button type="button" onClick={() => setReplying(false)}>
              {t('cancel')}
            </button>
          </div>
        </form>
      )}
    </li>
  );
}
