// The whole site planned from the vault's records, the settings and the time: the one
// way the build process and a full build's partner process come to the same plan.
import { createHash } from 'node:crypto';
import type { Config } from '../../shared/config.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { deriveSiteModel } from '../../shared/model/site-model.ts';
import type { Settings } from '../../shared/settings.ts';
import type { AttachmentIndex } from './attachments.ts';
import type { DiscussionMap } from './discussion.ts';
import { frameSig, siteFrame } from './frame.ts';
import { planSite, type Asset, type SitePlan } from './plan.ts';
import type { PlannedPage } from './plan-types.ts';

export interface PlanInputs {
  records: Iterable<NoteRecord>;
  attachments: AttachmentIndex;
  settings: Settings;
  config: Config;
  base: string;
  assets: Asset[];
  /** The frame's clock (the footer's year): both processes of a full build use the same. */
  now: Date;
  /** Approved comments and mentions by note (CONTRACT §8); null while comments are off. */
  discussion?: DiscussionMap | null;
}

export function planVault(input: PlanInputs): SitePlan {
  const frame = siteFrame(input.settings, input.config, input.base, input.now);
  const model = deriveSiteModel(input.records, frame.model);
  return planSite(model, frame, frameSig(frame), input.attachments, input.assets, frame.comments ? (input.discussion ?? null) : null);
}

/** One digest of pages in order (address, file, signature): two plans agree when theirs do. */
export function pagesDigest(pages: PlannedPage[]): string {
  const hash = createHash('sha1');
  for (const p of pages) hash.update(p.address).update('\u0000').update(p.file).update('\u0000').update(p.sig).update('\u0001');
  return hash.digest('hex');
}
