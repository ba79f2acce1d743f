// Fetching a webmention's source (CONTRACT §8) as a hostile address: its name is resolved
// here (with a time-out of its own), every address it gives is checked (loopback, private and link-local are refused
// unless WEBMENTION_ALLOW_PRIVATE=on), and the connection is made to the very address
// checked (DNS rebinding cannot swap it after the check). At most 5 s in all, 1 MB of
// body and 5 redirects, each redirect's target resolved and checked again. No connection
// outlives its check: a redirect's is closed unread, and every hop's is closed at the end.
import { promises as dns } from 'node:dns';
import http, { type ClientRequest } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPrivateAddress } from './ip-ranges.ts';

export const SOURCE_LIMITS = { timeoutMs: 5_000, maxBytes: 1024 * 1024, maxRedirects: 5 };

export type SourceAnswer =
  // `answered`: the source's own HTTP status (ours are decided in admin/http.ts alone).
  | { kind: 'ok'; url: string; answered: number; contentType: string; body: string }
  | { kind: 'gone'; answered: 410 }
  | { kind: 'refused'; reason: string }
  | { kind: 'failed'; answered?: number; reason: string };

export class SourceRefused extends Error {}

/** Which resolved addresses may be fetched: true lets private ones through (WEBMENTION_ALLOW_PRIVATE=on). */
export type AddressRule = boolean | ((address: string) => boolean);

const allows = (rule: AddressRule, address: string) => (typeof rule === 'function' ? rule(address) : rule || !isPrivateAddress(address));

/**
 * Ports a browser never fetches (the Fetch standard's "bad ports": mail, ssh, irc…): a
 * source there would make the server speak HTTP to another protocol's service.
 */
const BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113,
  115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556,
  563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667,
  6668, 6669, 6679, 6697, 10080,
]);

/** Whether a source URL names a port no browser would fetch. */
export function isBadPort(url: URL): boolean {
  return url.port !== '' && BAD_PORTS.has(Number(url.port));
}

export type ResolvedAddress = { address: string; family: number };
/** A name's addresses (every one of them is checked before any is used). */
export type Resolve = (host: string) => Promise<ResolvedAddress[]>;

/** How long a name may take to resolve: a sender's slow name never holds a check longer. */
export const LOOKUP_TIMEOUT_MS = 2_000;

/**
 * Names resolved by asking DNS directly (c-ares on the event loop, each lookup with its own
 * time-out and cancelled past it), never through getaddrinfo: that waits in libuv's four
 * threads, which file reads share, and cannot be cancelled, so a few slow names held every
 * check (they were once looked up one at a time, and ten slow names delayed a good one 37 s).
 * `servers`: the name servers asked (WEBMENTION_DNS), else the system's. `localhost` names
 * are loopback (RFC 6761) without asking.
 */
export function dnsResolver(servers: readonly string[] | null, timeoutMs = LOOKUP_TIMEOUT_MS): Resolve {
  return async (host) => {
    if (/^localhost\.?$|\.localhost\.?$/i.test(host)) return [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }];
    const resolver = new dns.Resolver({ timeout: timeoutMs, tries: 1 });
    if (servers) resolver.setServers(servers);
    const timer = setTimeout(() => resolver.cancel(), timeoutMs);
    try {
      const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
      const found: ResolvedAddress[] = [
        ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
        ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
      ];
      if (found.length === 0 && v4.status === 'rejected') throw v4.reason;
      return found;
    } finally {
      clearTimeout(timer);
    }
  };
}

const systemResolver = dnsResolver(null);

/** The address literal a host names, when it is one (no lookup needed); null for a name. */
export function literalAddress(host: string): ResolvedAddress | null {
  const bare = host.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  return family ? { address: bare, family } : null;
}

/** One checked address of `host`: every address it resolves to must be allowed. */
export async function checkedAddress(host: string, allowPrivate: AddressRule, resolve: Resolve = systemResolver): Promise<ResolvedAddress> {
  const literal = literalAddress(host);
  const found = literal ? [literal] : await resolve(host.replace(/^\[|\]$/g, ''));
  if (found.length === 0) throw new SourceRefused(`${host} has no address`);
  if (found.some((a) => !allows(allowPrivate, a.address))) throw new SourceRefused(`${host} resolves to a private address`);
  return found[0]!;
}

/** A lookup that answers the address already checked, whatever the socket asks. */
function pinned(address: string, family: number): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

interface Hop {
  answered: number;
  location: string | null;
  contentType: string;
  body: string;
}

/** One hop; its request joins `open`, for the check to close whatever is left of it. */
function requestOnce(url: URL, address: { address: string; family: number }, signal: AbortSignal, open: Set<ClientRequest>): Promise<Hop> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req: ClientRequest = client.request(
      url,
      {
        method: 'GET',
        lookup: pinned(address.address, address.family),
        signal,
        headers: { accept: 'text/html, application/xhtml+xml;q=0.9, */*;q=0.1', 'user-agent': 'vault-service webmention checker' },
        agent: false,
      },
      (res) => {
        const answered = res.statusCode ?? 0;
        const location = typeof res.headers.location === 'string' ? res.headers.location : null;
        const contentType = String(res.headers['content-type'] ?? '');
        if (answered >= 300 && answered < 400 && location) {
          // Its body is never read: draining it (resume) would download an endless one for ever.
          req.destroy();
          resolve({ answered, location, contentType, body: '' });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > SOURCE_LIMITS.maxBytes) {
            req.destroy(new Error(`the source is larger than ${SOURCE_LIMITS.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ answered, location: null, contentType, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    open.add(req);
    req.on('error', reject);
    req.end();
  });
}

/** The source's answer after redirects, or why there is none. */
export async function fetchSource(source: string, allowPrivate: AddressRule, resolve: Resolve = systemResolver): Promise<SourceAnswer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), SOURCE_LIMITS.timeoutMs);
  const open = new Set<ClientRequest>();
  try {
    let url = new URL(source);
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'refused', reason: `a redirect to ${url.protocol} is not followed` };
      if (isBadPort(url)) return { kind: 'refused', reason: `port ${url.port} is not fetched` };
      let address: { address: string; family: number };
      try {
        address = await checkedAddress(url.hostname, allowPrivate, resolve);
      } catch (err) {
        if (err instanceof SourceRefused) return { kind: 'refused', reason: err.message };
        return { kind: 'failed', reason: `${url.hostname} could not be resolved` };
      }
      const answer = await requestOnce(url, address, controller.signal, open);
      if (answer.location) {
        if (hop >= SOURCE_LIMITS.maxRedirects) return { kind: 'failed', reason: 'too many redirects' };
        url = new URL(answer.location, url);
        continue;
      }
      if (answer.answered === 410) return { kind: 'gone', answered: 410 };
      if (answer.answered < 200 || answer.answered >= 300) return { kind: 'failed', answered: answer.answered, reason: `the source answered ${answer.answered}` };
      return { kind: 'ok', url: url.href, answered: answer.answered, contentType: answer.contentType, body: answer.body };
    }
  } catch (err) {
    return { kind: 'failed', reason: controller.signal.aborted ? 'the source took longer than 5 s' : (err as Error).message };
  } finally {
    clearTimeout(timer);
    // The timer no longer guards them: whatever a hop left open (success, failure or time-out) closes with the check.
    for (const req of open) req.destroy();
  }
}
