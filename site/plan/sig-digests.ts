// The digests of the pages' signatures that a remembered generation holds (its record is
// rewritten after every pass, so a restart serves it at once). Hashing every page's
// signature for each record would make one saved note cost a hash per page of the site;
// an edit costs what it touches, so the digest of a page whose signature is the one seen
// last time is reused.
import { createHash } from 'node:crypto';

export const digest = (sig: string): string => createHash('sha1').update(sig).digest('base64url');

export class SigDigests {
  /** By address: the signature last digested, and its digest. */
  private known = new Map<string, readonly [sig: string, digest: string]>();

  constructor(private readonly hash: (sig: string) => string = digest) {}

  /** Each page's digest, in order; only addresses new or re-signed since the last call are hashed. */
  digests(pages: readonly { address: string; sig: string }[]): string[] {
    const next = new Map<string, readonly [string, string]>();
    const out = pages.map(({ address, sig }) => {
      const seen = this.known.get(address);
      const entry = seen && seen[0] === sig ? seen : ([sig, this.hash(sig)] as const);
      next.set(address, entry);
      return entry[1];
    });
    // Addresses gone from the site are forgotten with the last record.
    this.known = next;
    return out;
  }
}
