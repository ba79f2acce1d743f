// The answer to the article's comment form posted without a script and refused (a name of
// spaces alone, too many links, a third comment in a minute): a page in the site's
// language that says why, with the form again, filled with what the visitor wrote, so
// that nothing they typed is lost. It posts to the address it answers (the form's own).
import { escapeHtml } from '../../shared/note/escape.ts';
import { directionOf } from '../../shared/note/language.ts';
import { stringsFor } from '../plan/i18n.ts';

export interface CommentFailure {
  /** The site's language. */
  language: string;
  /** Why the comment was refused (the server's sentence). */
  message: string;
  /** The article's URL, when the post was found. */
  article: string | null;
  /** What the form carried. */
  fields: Record<string, unknown>;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export function commentFailurePage(failure: CommentFailure): string {
  const s = stringsFor(failure.language);
  const f = (name: string) => escapeHtml(text(failure.fields[name]));
  const field = (id: string, label: string, input: string) => `<p><label for="${id}">${escapeHtml(label)}</label><br>${input}</p>`;
  // The page's own load time stays the one the article's form carried, if a script filled it.
  const hidden = ['path', 'parent', 'loaded']
    .filter((name) => text(failure.fields[name]) !== '')
    .map((name) => `<input type="hidden" name="${name}" value="${f(name)}">`)
    .join('');
  return `<!doctype html>
<html lang="${escapeHtml(failure.language)}" dir="${directionOf(failure.language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(s.commentFailed)}</title>
<meta name="color-scheme" content="light dark">
<style>:root{color-scheme:light dark}body{font:1rem/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}input:not([type=hidden]),textarea{width:100%;box-sizing:border-box;font:inherit}</style></head>
<body><main><p role="alert"><strong>${escapeHtml(s.commentFailed)}</strong> <span dir="auto">${escapeHtml(failure.message)}</span></p>
<form method="post">${hidden}
${field('comment-name', s.commentName, `<input id="comment-name" name="name" required maxlength="80" autocomplete="name" dir="auto" value="${f('name')}">`)}
${field('comment-email', s.commentEmail, `<input id="comment-email" name="email" type="email" maxlength="254" autocomplete="email" dir="ltr" value="${f('email')}">`)}
${field('comment-website', s.commentWebsite, `<input id="comment-website" name="website" type="url" maxlength="2048" autocomplete="url" dir="ltr" value="${f('website')}">`)}
${field('comment-body', s.commentBody, `<textarea id="comment-body" name="body" required maxlength="5000" rows="8" dir="auto">${f('body')}</textarea>`)}
<p><button type="submit">${escapeHtml(s.commentSubmit)}</button></p></form>
${failure.article ? `<p><a href="${escapeHtml(failure.article)}#comments">${escapeHtml(s.backToArticle)}</a></p>` : ''}</main></body></html>
`;
}
