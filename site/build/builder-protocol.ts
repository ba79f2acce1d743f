// Messages between the public server and its build process (site/build/builder-process.ts).
import type { BuildWarning } from '../../shared/model/build-warnings.ts';
import type { PostItem, PostQuery, PostRef } from '../../shared/model/posts.ts';
import type { BuildResult, SiteBuilderOptions } from './site-builder.ts';

export type BuilderRequest =
  | { id: number; type: 'init'; options: SiteBuilderOptions }
  /**
   * `moves`: notes or folders the admin moved, [from, to] (CONTRACT §7: their old addresses
   * answer 301), told to whichever pass comes next; `discussed`: notes whose approved
   * comments or mentions changed (CONTRACT §8).
   */
  | { id: number; type: 'full'; moves?: [string, string][] }
  | { id: number; type: 'resume'; moves?: [string, string][] }
  | { id: number; type: 'apply'; paths: string[]; discussed?: string[]; moves?: [string, string][] }
  | { id: number; type: 'tidy' }
  | { id: number; type: 'posts' }
  | { id: number; type: 'post'; query: PostQuery };

export type BuilderReply =
  /** `warnings`: the build's whole current list, sent when it changed (build-warnings.ts). */
  | { id: number; ok: true; result: BuildResult | PostItem[] | PostRef | null; warnings?: BuildWarning[] }
  | { id: number; ok: false; error: string }
  /** Unasked: smaller copies of these images were made; a pass shows them (site/render/image-variants.ts). */
  | { id: null; imagesReady: string[] }
  /** Unasked: the heap still live after the collection that follows a whole-site pass (build-heap.ts heapForLive). */
  | { id: null; liveHeapMB: number };

/**
 * Sends a reply to the server; resolves once it is written. A reply larger than the pipe
 * holds (a whole build's 10,000 addresses, about 1.4 MB) goes out only as this process's
 * loop turns: sent, then a second of work after it, it reached the server that second later.
 */
export function sendReply(reply: BuilderReply, send = process.send?.bind(process)): Promise<void> {
  return new Promise((resolve) => {
    if (!send) return resolve();
    // Resolved on an error too: a server gone away stops this process (builder-process.ts).
    send(reply, undefined, undefined, () => resolve());
  });
}
