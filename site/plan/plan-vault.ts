// The whole site planned from the vault's records, the settings and the time: the one
// way the build process and the build thread of a full build come to the same plan.
import type { PlanMemory } from './plan-memory.ts';
import type { Config } from '../../shared/config.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { deriveSiteModel } from '../../shared/model/site-model.ts';
import type { Settings } from '../../shared/settings.ts';
import type { AttachmentIndex } from '../read/attachments.ts';
import type { DiscussionMap } from './discussion.ts';
import type { ImageVariants } from '../render/image-variants.ts';
import { frameSig, siteFrame } from './frame.ts';
import type { PageContext } from './page-context.ts';
import { planSite, type Asset, type SitePlan } from './plan.ts';

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
  /** Posts' feed ids (feed-ids.ts), where the planner keeps them. */
  feedIds?: PageContext['feedIds'];
  /** Smaller copies of the raster images notes show (absent: originals only). */
  images?: ImageVariants | null;
  /** What the builder keeps from one plan to the next (absent: a plan of its own). */
  memory?: PlanMemory;
}

export function planVault(input: PlanInputs): SitePlan {
  const frame = siteFrame(input.settings, input.config, input.base, input.now);
  const model = deriveSiteModel(input.records, frame.model);
  return planSite(model, frame, frameSig(frame), input.attachments, input.assets, frame.comments ? (input.discussion ?? null) : null, input.images ?? null, input.feedIds ?? null, input.memory);
}
