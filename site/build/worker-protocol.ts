// Messages between the public server and the build worker.
import type { BuildWarning } from '../../shared/model/build-warnings.ts';
import type { PostItem } from '../../shared/model/posts.ts';
import type { BuildResult, SiteBuilderOptions } from './site-builder.ts';

export type WorkerRequest =
  | { id: number; type: 'init'; options: SiteBuilderOptions }
  | { id: number; type: 'full' }
  | { id: number; type: 'resume' }
  | { id: number; type: 'apply'; paths: string[] }
  | { id: number; type: 'tidy' }
  | { id: number; type: 'posts' };

export type WorkerReply =
  /** `warnings`: the build's whole current list, sent when it changed (build-warnings.ts). */
  | { id: number; ok: true; result: BuildResult | PostItem[] | null; warnings?: BuildWarning[] }
  | { id: number; ok: false; error: string };
