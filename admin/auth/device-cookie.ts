// A browser that has signed in here before carries a device cookie, and its sign-ins skip the
// global slow-down (login-guard.ts): a guessing flood from many networks (IPv6 /64s cost
// nothing) makes every other sign-in wait its network's turn, but never the owner's own
// devices. The cookie grants nothing by itself: the password is still checked, and the
// network's own limit still counts.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { browserOnHttps, readCookie } from './sessions.ts';

export const DEVICE_COOKIE = 'service_device';
/** The longest a browser keeps a cookie. */
const DEVICE_MAX_AGE_S = 400 * 24 * 60 * 60;

const mac = (key: Buffer, id: string) => createHmac('sha256', key).update(id).digest('base64url');

/** The Set-Cookie header of a new device cookie signed with `key`. */
export function deviceCookie(key: Buffer, req: IncomingMessage): string {
  const id = randomBytes(18).toString('base64url');
  const secure = browserOnHttps(req) ? '; Secure' : '';
  return `${DEVICE_COOKIE}=${id}.${mac(key, id)}; Path=/api/login; HttpOnly; SameSite=Strict; Max-Age=${DEVICE_MAX_AGE_S}${secure}`;
}

/** The id of the device cookie `req` carries, when it is signed with `key`; else null. */
export function knownDevice(key: Buffer, req: IncomingMessage): string | null {
  const value = readCookie(req, DEVICE_COOKIE);
  const dot = value?.indexOf('.') ?? -1;
  if (!value || dot < 1 || value.length > 200) return null;
  const id = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1));
  const wanted = Buffer.from(mac(key, id));
  return given.length === wanted.length && timingSafeEqual(given, wanted) ? id : null;
}
