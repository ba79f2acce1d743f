// What an article shows of its discussion (CONTRACT §8, spec D.1): approved comments as
// threads (replies nested one level, the newest thread last), the form, and the Mentions
// section (replies from other sites as a thread, likes and reposts as rows of avatars,
// plain mentions as links). Every string a visitor or another site supplied stays text
// here: the templates escape it, and comment bodies are Markdown without HTML.
import { commentHtml, plainTextHtml } from '../../shared/comments/markdown.ts';
import type { PublicComment, PublicMention } from '../../shared/comments/read.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { dateLocales } from './i18n.ts';
import type { PageContext } from './page-context.ts';

export interface PersonView {
  name: string;
  url: string | null;
  /** Loaded by the page's script once in view (no third-party request before). */
  photo: string | null;
  initial: string;
}

export interface CommentView {
  id: string;
  name: string;
  website: string | null;
  initial: string;
  html: string;
  dateIso: string;
  dateText: string;
  /** The site's author (an admin's reply). */
  author: boolean;
  replies: CommentView[];
}

export interface MentionView {
  id: string;
  source: string;
  sourceHost: string;
  author: PersonView;
  html: string | null;
  dateIso: string;
  dateText: string;
}

export interface DiscussionView {
  /** A post takes comments: the form is shown (static pages and the home note show none). */
  open: boolean;
  /** The note's vault path, as the form posts it. */
  path: string;
  action: string;
  /** The locales a date is written in (i18n.ts `dateLocales`), space-separated: the page's script dates a comment it shows at once. */
  dateLocales: string;
  countText: string | null;
  threads: CommentView[];
  mentions: {
    replies: MentionView[];
    likes: MentionView[];
    likesText: string;
    reposts: MentionView[];
    repostsText: string;
    links: MentionView[];
  } | null;
}

const initialOf = (name: string) => Array.from(name.trim())[0]?.toUpperCase() ?? '?';

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function commentView(ctx: PageContext, c: PublicComment): CommentView {
  return {
    id: c.id,
    name: c.name,
    website: c.website,
    initial: initialOf(c.name),
    html: commentHtml(c.body),
    dateIso: new Date(c.date).toISOString(),
    dateText: ctx.fmt.date(c.date),
    author: c.author,
    replies: [],
  };
}

/** Top-level comments in order, each with its replies; a reply whose comment is not shown stands alone. */
function threads(ctx: PageContext, comments: PublicComment[]): CommentView[] {
  const top = new Map<string, CommentView>();
  const out: CommentView[] = [];
  for (const c of comments) {
    const parent = c.parent ? top.get(c.parent) : undefined;
    const view = commentView(ctx, c);
    if (parent) parent.replies.push(view);
    else {
      top.set(c.id, view);
      out.push(view);
    }
  }
  return out;
}

function mentionView(ctx: PageContext, m: PublicMention): MentionView {
  const name = m.author.name ?? hostOf(m.author.url ?? m.source);
  return {
    id: m.id,
    source: m.source,
    sourceHost: hostOf(m.source),
    author: { name, url: m.author.url, photo: m.author.photo, initial: initialOf(name) },
    html: plainTextHtml(m.content) || null,
    dateIso: new Date(m.date).toISOString(),
    dateText: ctx.fmt.date(m.date),
  };
}

/** The article's discussion, or null while comments are off. */
export function discussionView(ctx: PageContext, note: NoteRecord): DiscussionView | null {
  if (!ctx.frame.comments) return null;
  const d = ctx.discussionOf(note);
  const s = ctx.frame.strings;
  const count = d?.count ?? 0;
  const mentions = d?.mentions ?? [];
  const of = (kind: PublicMention['kind']) => mentions.filter((m) => m.kind === kind).map((m) => mentionView(ctx, m));
  const likes = of('like');
  const reposts = of('repost');
  return {
    open: !note.page && note !== ctx.model.homeNote,
    path: note.path,
    action: `${ctx.frame.base}/api/comments`,
    dateLocales: dateLocales(ctx.frame.lang, ctx.frame.blogLocale, ctx.frame.calendar).join(' '),
    countText: count > 0 ? ctx.commentsText(count) : null,
    threads: threads(ctx, d?.comments ?? []),
    mentions:
      mentions.length === 0
        ? null
        : {
            replies: of('reply'),
            likes,
            likesText: s.likes(ctx.fmt.number(likes.length), likes.length),
            reposts,
            repostsText: s.reposts(ctx.fmt.number(reposts.length), reposts.length),
            links: of('mention'),
          },
  };
}
