// Admin sessions live in this process's memory: logout (or a restart) kills them.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const SESSION_COOKIE = 'service_session';
const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface SessionStore {
  create(): string;
  isValid(token: string | undefined): boolean;
  destroy(token: string | undefined): void;
}

export function createSessionStore(now: () => number = Date.now): SessionStore {
  const sessions = new Map<string, number>();
  return {
    create() {
      const token = randomBytes(32).toString('base64url');
      sessions.set(token, now() + SESSION_TTL_MS);
      return token;
    },
    isValid(token) {
      if (!token) return false;
      const expires = sessions.get(token);
      if (expires === undefined) return false;
      if (expires < now()) {
        sessions.delete(token);
        return false;
      }
      return true;
    },
    destroy(token) {
      if (token) sessions.delete(token);
    },
  };
}

export function readCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    // A malformed value (`%E0%A4%A`) names no session: look on, else the request is a visitor's.
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      continue;
    }
  }
  return undefined;
}

export function isHttps(req: IncomingMessage): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  const proto = req.headers['x-forwarded-proto'];
  return typeof proto === 'string' && proto.split(',')[0]!.trim() === 'https';
}

/**
 * Whether the browser that sent `req` is on https: the connection or the proxy says so, or
 * the browser does (a sign-in is a fetch, which names its page's origin). A TLS proxy that
 * sends no X-Forwarded-Proto once left the cookie without Secure (a reviewer's find).
 */
export function browserOnHttps(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  return isHttps(req) || (typeof origin === 'string' && origin.startsWith('https://'));
}

export function sessionCookie(token: string, req: IncomingMessage): string {
  const secure = browserOnHttps(req) ? '; Secure' : '';
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_TTL_MS / 1000}${secure}`;
}

export function clearedCookie(req: IncomingMessage): string {
  const secure = browserOnHttps(req) ? '; Secure' : '';
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`;
}
