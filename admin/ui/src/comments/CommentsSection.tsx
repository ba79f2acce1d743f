// The open note's thread in the right-hand panel (CONTRACT §8): every comment and
// mention of it, whatever its status, with the same actions as the queue.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { tabs } from '../editor/workspace.ts';
import { t } from '../i18n.ts';
import { PanelSection } from '../panel/PanelSection.tsx';
import { useStore } from '../store.ts';
import type { CommentItem, MentionItem } from '../types.ts';
import { CommentCard } from './CommentCard.tsx';
import { commentsStamp } from './model.ts';

type Thread = { path: string; comments: CommentItem[]; mentions: MentionItem[] };

function NoteThread({ path }: { path: string }) {
  const stamp = useStore(commentsStamp);
  const [thread, setThread] = useState<Thread | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all([api.comments(path), api.mentions(path)]).then(
      ([c, m]) => live && (setThread({ path, comments: c.comments, mentions: m.mentions }), setError(null)),
      (err: Error) => live && setError(err.message),
    );
    return () => {
      live = false;
    };
  }, [path, stamp]);
  if (error) return <p class="error-line">{error}</p>;
  if (!thread || thread.path !== path) return <p class="muted">{t('loading')}</p>;
  if (thread.comments.length === 0 && thread.mentions.length === 0) return <p class="muted">{t('noNoteComments')}</p>;
  // Replies sit under the comment they answer.
  const top = thread.comments.filter((c) => !c.parent || !thread.comments.some((p) => p.id === c.parent));
  return (
    <ul class="comment-list compact" data-testid="note-comments">
      {top.map((c) => (
        <>
          <CommentCard key={c.id} item={{ ...c, type: 'comment' }} />
          {thread.comments
            .filter((r) => r.parent === c.id)
            .map((r) => (
              <div class="comment-reply-row">
                <CommentCard key={r.id} item={{ ...r, type: 'comment' }} />
              </div>
            ))}
        </>
      ))}
      {thread.mentions.map((m) => (
        <CommentCard key={m.id} item={{ ...m, type: 'mention' }} />
      ))}
    </ul>
  );
}

export function CommentsSection() {
  const { active } = useStore(tabs);
  return (
    <PanelSection id="comments" title={t('comments')}>
      {active ? <NoteThread path={active} /> : null}
    </PanelSection>
  );
}
