// A full build's search base made by its partner thread (issue 12). The partner is idle
// while the build plans the site (only this side holds the model), and the base's files
// depend on nothing but the searchable notes' documents, which are known before the plan
// (search-docs.ts searchableBeforePlan): they go to the partner as the plan starts, and
// its files come back before the plan's search outputs are made (search-index.ts). A
// partner lost on the way answers null: the build makes the files itself from the same
// documents.
import type { SearchDoc } from '../../shared/search/index-format.ts';
import type { PartnerLink } from './partner-link.ts';
import type { BaseFiles } from './search-base.ts';

/** The base's files of `docs` (in id order), made by the partner; null when it was lost first. */
export function searchOnPartner(partner: PartnerLink, docs: SearchDoc[]): Promise<BaseFiles | null> {
  if (!partner.send({ type: 'search', docs })) return Promise.resolve(null);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (files: BaseFiles | null) => {
      if (settled) return;
      settled = true;
      off();
      resolve(files);
    };
    const off = partner.on((reply) => {
      if (reply.type === 'searched') settle(reply.files);
    });
    void (async () => {
      while (!settled && !partner.lost) await partner.changed();
      settle(null);
    })();
  });
}
