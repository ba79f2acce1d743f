// In front of every /api/* route: who is asking, and is the body JSON.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SessionStore } from './sessions.ts';
import { readCookie, SESSION_COOKIE } from './sessions.ts';
import { isCrossSite } from './cross-site.ts';
import { refuse } from '../../shared/errors.ts';
import { sendError } from '../http.ts';

/**
 * The only API routes a visitor may call (CONTRACT §2). Logout too: a browser holding a
 * cookie whose session is gone (a restart) must be able to clear it, which a 401 never did.
 */
const OPEN_ROUTES = new Set(['/api/login', '/api/me', '/api/logout']);

/**
 * What a visitor of a public site may read or post (CONTRACT §5, §8): the posts, the
 * comments and mentions of a post, and a comment. On a PUBLIC=false instance: 401.
 */
const VISITOR_ROUTES = new Set(['GET /api/posts', 'GET /api/comments', 'POST /api/comments', 'GET /api/mentions']);

/** CONTRACT §8: the comment form posts without a script, form-encoded. */
const FORM_ROUTES = new Set(['POST /api/comments']);

function routeKey(req: IncomingMessage, pathname: string): string {
  const method = (req.method ?? 'GET').toUpperCase();
  return `${method === 'HEAD' ? 'GET' : method} ${pathname}`;
}

function isFormPost(req: IncomingMessage): boolean {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

export function isAdminRequest(sessions: SessionStore, req: IncomingMessage): boolean {
  return sessions.isValid(readCookie(req, SESSION_COOKIE));
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * A form post from another site always carries a form content type, so refusing
 * anything but application/json keeps cross-site forms out of mutating routes.
 */
export function isJsonOnlyViolation(req: IncomingMessage): boolean {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return false;
  const type = req.headers['content-type'];
  if (type === undefined) return hasBody(req);
  return type.split(';')[0]!.trim().toLowerCase() !== 'application/json';
}

export function apiGate(sessions: SessionStore, options: { siteUrl: string | null; isPublic?: boolean } = { siteUrl: null }) {
  return (req: IncomingMessage & { path?: string }, res: ServerResponse, next: () => void) => {
    const pathname = (req.url ?? '').split('?')[0]!;
    if (!pathname.startsWith('/api/')) return next();
    // First, before the session: a cross-site request is refused whoever it claims to be.
    if (isCrossSite(req, pathname, options.siteUrl)) {
      sendError(res, refuse('cross_site', 'Requests from another site may not change anything here.'));
      return;
    }
    const key = routeKey(req, pathname);
    const visitorMay = options.isPublic !== false && VISITOR_ROUTES.has(key);
    if (!OPEN_ROUTES.has(pathname) && !visitorMay && !isAdminRequest(sessions, req)) {
      sendError(res, refuse('unauthorized', 'Sign in as the admin first.'));
      return;
    }
    if (isJsonOnlyViolation(req) && !(FORM_ROUTES.has(key) && isFormPost(req))) {
      sendError(res, refuse('json_only', 'This route accepts only application/json bodies.'));
      return;
    }
    next();
  };
}
