// Messages between the public server and the build worker.
import type { BuildResult, SiteBuilderOptions } from './site-builder.ts';

export type WorkerRequest =
  | { id: number; type: 'init'; options: SiteBuilderOptions }
  | { id: number; type: 'full' }
  | { id: number; type: 'apply'; paths: string[] };

export type WorkerReply = { id: number; ok: true; result: BuildResult | null } | { id: number; ok: false; error: string };
