// RFC 9112 §3.2.2: a server must accept a request target in absolute form
// (`GET http://host/path`), which proxies send; every route here reads `req.url` as a
// path. It becomes the origin form (`/path?query`), and its authority stands for the Host
// header, which the RFC says to ignore then (the base URL of absolute links comes from it).
import type { IncomingMessage } from 'node:http';

const ABSOLUTE = /^https?:\/\//i;

/** Rewrites an absolute-form `req.url` in place; a malformed one is left as it is (answered 404). */
export function toOriginForm(req: IncomingMessage): void {
  const target = req.url;
  if (!target || !ABSOLUTE.test(target)) return;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return;
  }
  req.url = url.pathname + url.search;
  req.headers.host = url.host;
}
