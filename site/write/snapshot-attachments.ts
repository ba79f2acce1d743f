// A static host sends a file as it is, with none of our headers. The live server sends an
// attachment that could run script sandboxed (site/serve/security-headers.ts); opened from a
// static host at the site's own address it would run as the site. So a snapshot copies an
// attachment only when its type is passive (images, audio, video, PDFs, fonts, plain text),
// and an SVG only as snapshot-svg.ts writes it again after a real parse. Anything else is
// left out, with a build warning naming each published note that links it.
import path from 'node:path';
import { mergeWarnings, type BuildWarning } from '../../shared/model/build-warnings.ts';
import { withAnchorWarnings } from '../../shared/model/anchor-links.ts';
import { readRegularFileSync } from '../../shared/vault-read.ts';
import type { PlannedPage } from '../plan/plan-types.ts';
import { isPassiveMedia } from '../serve/security-headers.ts';
import type { PageContext } from '../plan/page-context.ts';
import { VAULT_STYLESHEET, type SitePlan } from '../plan/plan.ts';
import { MAX_SVG_BYTES, safeSvg, SvgRefused } from '../render/snapshot-svg.ts';

/** Plain text a browser shows as text (a static host sends it as text/plain or text/csv). */
const PLAIN_TEXT = /\.(txt|csv|tsv)$/i;
const SVG = /\.svg$/i;

/** What a snapshot does with an attachment: copy the file, write these bytes in its place, or leave it out and why. */
export type SnapshotCopy = { copy: true } | { bytes: Buffer } | { leftOut: string };

/**
 * What a snapshot does with the attachment at vault path `file`. `read` gives its bytes
 * (asked for an SVG only; null when it cannot be read as a regular file). `siteFile`: the
 * site itself loads it (the vault's publish.css), not a note.
 */
export function snapshotCopyOf(file: string, read: () => Buffer | null, siteFile = false): SnapshotCopy {
  if (siteFile || isPassiveMedia(file) || PLAIN_TEXT.test(file)) return { copy: true };
  if (!SVG.test(file)) return { leftOut: 'only images, audio, video, PDFs, fonts and plain text are copied; a static host could run this file as a page of the site' };
  const bytes = read();
  if (!bytes) return { leftOut: `it could not be read as a regular file of at most ${MAX_SVG_BYTES / 1024 / 1024} MB` };
  try {
    return { bytes: safeSvg(bytes) };
  } catch (err) {
    if (!(err instanceof SvgRefused)) throw err;
    return { leftOut: `${err.message}, which a static host could run as the site` };
  }
}

/**
 * One warning for each published note that links an attachment left out of the snapshot
 * (`leftOut`: vault path → why); the site's logo or banner is named by its own path.
 * `forecast`: said of a snapshot not made (the server's warnings).
 */
export function leftOutWarnings(ctx: PageContext, leftOut: ReadonlyMap<string, string>, forecast = false): BuildWarning[] {
  if (leftOut.size === 0) return [];
  const linkers = new Map<string, Set<string>>();
  const add = (p: string | null, note: string) => {
    if (p && leftOut.has(p)) (linkers.get(p) ?? linkers.set(p, new Set()).get(p)!).add(note);
  };
  for (const note of ctx.model.visible) {
    for (const target of note.embeds) add(ctx.attachments.resolve(target, note), note.path);
    if (note.banner) add(ctx.attachments.resolve(note.banner, note), note.path);
  }
  const warnings: BuildWarning[] = [];
  for (const [p, why] of leftOut) {
    const notes = linkers.get(p);
    const left = forecast ? 'a static snapshot would leave out' : 'is left out of the snapshot';
    const site = forecast ? "the site's logo or banner would be left out of a static snapshot" : "the site's logo or banner is left out of the snapshot";
    if (!notes) warnings.push({ note: p, kind: 'left-out-of-snapshot', message: `${site}: ${why}`, variant: 'site_asset', detail: why });
    else for (const note of notes) warnings.push({ note, kind: 'left-out-of-snapshot', message: `links to ${p}, which ${left}: ${why}`, target: p, detail: why });
  }
  return warnings;
}

/**
 * What a static snapshot of the live site would leave out, for the server's warnings (a
 * snapshot build finds its own as it writes). Each attachment's answer is kept while its
 * page's signature (the file's stamp) holds, so an SVG is read and parsed once, not per pass.
 */
export class SnapshotForecast {
  private readonly known = new Map<string, { sig: string; why: string | null }>();

  constructor(private readonly vaultDir: string) {}

  /** `siteFile`: the vault's own stylesheet the site loads, copied whatever it is. */
  warnings(ctx: PageContext, pages: Iterable<PlannedPage>, siteFile: string | null): BuildWarning[] {
    const leftOut = new Map<string, string>();
    const seen = new Set<string>();
    for (const page of pages) {
      if (page.kind !== 'attachment' || !page.source) continue;
      seen.add(page.source);
      let known = this.known.get(page.source);
      if (!known || known.sig !== page.sig) {
        const source = path.join(this.vaultDir, ...page.source.split('/'));
        const copy = snapshotCopyOf(page.source, () => readRegularFileSync(source, MAX_SVG_BYTES), page.source === siteFile);
        known = { sig: page.sig, why: 'leftOut' in copy ? copy.leftOut : null };
        this.known.set(page.source, known);
      }
      if (known.why) leftOut.set(page.source, known.why);
    }
    for (const p of this.known.keys()) if (!seen.has(p)) this.known.delete(p);
    return leftOutWarnings(ctx, leftOut, true);
  }
}

/** A plan's warnings, with what a snapshot of it would leave out (a snapshot build lists those as it writes). */
export function warningsWithForecast(plan: SitePlan, forecast: SnapshotForecast | null): BuildWarning[] {
  const listed = withAnchorWarnings(plan.ctx.model);
  const more = forecast?.warnings(plan.ctx, plan.pages.values(), plan.ctx.publishCss ? VAULT_STYLESHEET : null) ?? [];
  return mergeWarnings(listed, more);
}
