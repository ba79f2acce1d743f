// A visitor's comment checked field by field (CONTRACT §8): a bad field is a 400 naming
// it, and nothing is stored. Then the form's silent rules: a filled honeypot, or a form
// post sent within 2 s of its page's load, is taken (202/303) and dropped, never shown.
// A JSON post is judged by the other rules only (fields, links, rate limit, moderation).
import { linkCount } from '../../shared/comments/markdown.ts';
import { refuse } from '../../shared/errors.ts';

export const COMMENT_LIMITS = { name: 80, body: 5_000, email: 254, website: 2_048, links: 3, minMs: 2_000 };
/** The form's trap: hidden from people, filled by robots that fill every field. */
export const HONEYPOT_FIELD = 'subject';

export interface CommentInput {
  path: string;
  name: string;
  body: string;
  email: string | null;
  website: string | null;
  parent: string | null;
}

/** What a form post says of its own timing and trap (only what it carries is judged). */
export interface SpamSignals {
  honeypot: string;
  /** When the page was loaded and the form sent, by the page's own clock, when a script filled the form's `loaded` (and `sent`) fields. */
  loaded: number | null;
  sent: number | null;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u2028\u2029]/;
// eslint-disable-next-line no-control-regex
const CONTROL_OR_NEWLINE = /[\u0000-\u001f\u007f\u2028\u2029]/;

// Bidi controls (they can reorder how a name reads) and characters that show nothing: a
// name made of them alone is no name. Joiners (U+200C, U+200D) stay between two visible
// characters, where emoji sequences and Persian or Indic names need them.
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
const INVISIBLE = /[\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180e\u200b\u2060-\u2064\u206a-\u206f\u2800\u3164\ufeff\uffa0]/gu;
const LOOSE_JOINERS = /(^|\s)[\u200c\u200d]+|(?<![\u200c\u200d])[\u200c\u200d]+(?=\s|$)/gu;

/** A name as it shows: without bidi controls or invisible characters (other values as they are, for textField to judge). */
export function visibleName(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return value.replace(BIDI, '').replace(INVISIBLE, '').replace(LOOSE_JOINERS, '$1');
}

const bad = (code: string, field: string, message: string, figures: Record<string, string | number> = {}) => refuse(code, message, { field, ...figures });

function textField(value: unknown, field: string, max: number, options: { required: boolean; multiline?: boolean }): string | null {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    if (options.required) throw bad('required', field, `${field} is required.`);
    return null;
  }
  if (typeof value !== 'string') throw bad('bad_field', field, `${field} must be text.`);
  const v = value.replace(/\r\n?/g, '\n');
  // Counted in characters as a person counts them (an emoji is one).
  if ([...v].length > max) throw bad('too_long', field, `${field} must be at most ${max} characters.`, { max });
  if ((options.multiline ? CONTROL : CONTROL_OR_NEWLINE).test(v)) throw bad('bad_field', field, `${field} contains control characters.`);
  return options.multiline ? v.trim() : v.trim().replace(/\s+/g, ' ');
}

function email(value: unknown): string | null {
  const v = textField(value, 'email', COMMENT_LIMITS.email, { required: false });
  if (v === null) return null;
  if (!/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(v)) throw bad('bad_email', 'email', 'email must be an email address.');
  return v;
}

function website(value: unknown): string | null {
  const v = textField(value, 'website', COMMENT_LIMITS.website, { required: false });
  if (v === null) return null;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(v) ? v : `https://${v}`);
  } catch {
    throw bad('bad_url', 'website', 'website must be an http(s) address.', { reason: 'website' });
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || !url.hostname.includes('.')) {
    throw bad('bad_url', 'website', 'website must be an http(s) address.', { reason: 'website' });
  }
  return url.href;
}

/** The vault path a comment or a question names (400 when there is none). */
export function commentPath(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw bad('required', 'path', 'path is required.');
  return value;
}

/** Parses a post's fields (JSON or form); throws a 400 naming the first bad field. */
export function parseComment(body: Record<string, unknown>): CommentInput {
  const input: CommentInput = {
    path: commentPath(body.path),
    name: textField(visibleName(body.name), 'name', COMMENT_LIMITS.name, { required: true })!,
    body: textField(body.body, 'body', COMMENT_LIMITS.body, { required: true, multiline: true })!,
    email: email(body.email),
    website: website(body.website),
    parent: textField(body.parent, 'parent', 64, { required: false }),
  };
  if (linkCount(input.body) > COMMENT_LIMITS.links) throw bad('too_many_links', 'body', `A comment may carry at most ${COMMENT_LIMITS.links} links.`, { max: COMMENT_LIMITS.links });
  return input;
}

function time(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,16}$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
}

export function spamSignals(body: Record<string, unknown>): SpamSignals {
  return { honeypot: typeof body[HONEYPOT_FIELD] === 'string' ? (body[HONEYPOT_FIELD] as string) : '', loaded: time(body.loaded), sent: time(body.sent) };
}

/**
 * True when the post is to be taken and dropped (CONTRACT §8: a form post only). The
 * page's load time "carried in the form" is its `loaded` field when a script filled it;
 * a static page cannot carry its own, so otherwise it is `sentAt`, when this server sent
 * that page to this client (sent-pages.ts).
 */
export function isSilentlyDropped(signals: SpamSignals, form: boolean, sentAt: number | null, now = Date.now()): boolean {
  if (!form) return false;
  if (signals.honeypot.trim() !== '') return true;
  if (signals.loaded !== null) {
    // Sent by the page's clock when it says so, else arrived by ours; a load time after that is a clock we cannot read.
    const sent = signals.sent ?? now;
    if (signals.loaded <= sent) return sent - signals.loaded < COMMENT_LIMITS.minMs;
  }
  return sentAt !== null && now - sentAt < COMMENT_LIMITS.minMs;
}

/** The author's reply (POST /api/comments/reply): the body's own rules, links not counted. */
export function replyBody(value: unknown): string {
  return textField(value, 'body', COMMENT_LIMITS.body, { required: true, multiline: true })!;
}
