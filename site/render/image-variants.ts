// Smaller WebP copies of the raster images notes show (a srcset), made by eleventy-img
// (sharp) once per image content and kept in the data directory between builds: a
// folder per sha256 of the bytes and the recipe, written whole or not at all. Making them
// is background work: until an image's copies exist its page shows the original, and the
// pass after they are made (`onReady`) shows them. A file that is no image, a truncated
// one or one of too many pixels is shown as it is, with a reason, and never tried again;
// so is one whose scaling a crash cut short twice (scaling-marks.ts).
// The server's builder removes the copies of contents no image of the vault has shown for a
// week (`prune`), so replaced and deleted images do not fill the data directory.
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { imageSize } from 'image-size';
import { writeJsonAtomic } from '../../shared/atomic-write.ts';
import { IMAGE_COPIES_SEGMENT } from '../../shared/model/addresses.ts';
import { log } from '../../shared/log.ts';
import { readVaultFile, readVaultHeadSync } from '../../shared/vault-read.ts';
import { attachmentStamp, type AttachmentInfo } from '../read/attachments.ts';
import { MAX_SCALING_TRIES, SCALING_MARK, ScalingMarks } from './scaling-marks.ts';

/** Where the copies are served: a content-hashed address, so they never change (no vault file is published there). */
export const VARIANTS_PREFIX = `${IMAGE_COPIES_SEGMENT}/`;
/** Rasters only: an SVG stays a drawing, a GIF keeps its frames. */
const RASTER = /\.(png|jpe?g|webp|tiff?)$/i;
/** Widths offered in a srcset, below the original's; the original's own when it is narrower than the last. */
export const VARIANT_WIDTHS = [320, 640, 960, 1280, 1920];
/** sharp's limitInputPixels: a decompression bomb is refused before it is decoded (50 MP is an 8,660-pixel square). */
export const MAX_INPUT_PIXELS = 50_000_000;
/** A file larger than this is not read into memory to be scaled. */
const MAX_INPUT_BYTES = 64 * 1024 * 1024;
/** What the copies are made with: a change of any of it makes them again (a new folder name). */
const RECIPE = createHash('sha256').update(`eleventy-img 6.0.4; webp; ${VARIANT_WIDTHS.join(',')}; ${MAX_INPUT_PIXELS}; failOn warning`).digest('hex').slice(0, 8);
/** Remembered vault path → stamp and content key, so a new process knows its images without reading them. */
const STAMPS_FILE = 'stamps.json';
const META_FILE = 'meta.json';
/** Content key → when copies were first found that no image of the vault shows. */
const UNUSED_FILE = 'unused.json';
/** A content key's folder name; any other name in the cache is left alone. */
const KEY = /^[0-9a-f]{32}-[0-9a-f]{8}$/;
/** Copies no image shows are kept this long: an image put back meanwhile (an undo, an older commit checked out) is not scaled again. */
export const UNSHOWN_KEPT_MS = 7 * 24 * 3_600_000;
/** A make() folder this old is none in progress but one a crash left behind. */
const LEFT_BEHIND_MS = 3_600_000;
const TELL_EVERY_MS = 10_000;

export interface ImageVariant {
  width: number;
  /** Site-relative file (and address without its slash): `_img/<key>/<width>.webp`. */
  file: string;
}

export type ImageState =
  /** Copies made: the original's size as shown (EXIF rotation applied) and each copy. */
  | { kind: 'ready'; width: number; height: number; variants: ImageVariant[] }
  /** Shown as it is: the file is no usable image (`warn`: the author should hear why). */
  | { kind: 'original'; reason: string; warn: boolean }
  /** Not made yet: shown as it is for now, with its size when its header tells it. */
  | { kind: 'pending'; width?: number; height?: number };

/** What a content key's folder holds, as meta.json says. */
type Made = { width: number; height: number; widths: number[] } | { error: string; warn: boolean };

export const isRasterImage = (p: string): boolean => RASTER.test(p);

export class ImageVariants {
  /** Vault path → the stamp it had and its content key (or a reason it has none). */
  private known = new Map<string, { stamp: string; key: string | null; reason?: string }>();
  private made = new Map<string, Made>();
  private queue = new Map<string, AttachmentInfo>();
  /** Sizes read from the headers of images not made yet, by vault path and stamp. */
  private headers = new Map<string, { stamp: string; size: { width: number; height: number } | null }>();
  private draining: Promise<void> | null = null;
  /** A prune under way: a drain waits for it, so no folder it removes is being taken meanwhile. */
  private pruning: Promise<number> | null = null;
  /** Images given to sharp in this process. */
  private scaled = 0;
  /** Scalings under way, marked: one a crash cut short is not begun for ever (scaling-marks.ts). */
  private readonly marks: ScalingMarks;
  /** Counts images whose state was settled (made, or found unusable): a plan's signatures read it (page-context.ts world). */
  version = 0;
  /** Told the vault paths whose copies (or verdicts) became known, once the queue is empty. */
  onReady: ((paths: string[]) => void) | null = null;

  constructor(
    /** The cache folder in the data directory. */
    readonly dir: string,
    private readonly vaultDir: string,
    /** libvips threads: one in the server's builder, beside the site; the machine's in a snapshot. */
    private readonly threads = 1,
    /**
     * Whether a vault path is still a file of the vault, for `prune`; null in a snapshot, which
     * never prunes: its vault may not be the one the folder serves.
     */
    private readonly inVault: ((p: string) => boolean) | null = null,
  ) {
    this.marks = new ScalingMarks(dir);
    try {
      const stamps = JSON.parse(readFileSync(path.join(dir, STAMPS_FILE), 'utf8')) as Record<string, [string, string]>;
      for (const [p, [stamp, key]] of Object.entries(stamps)) if (typeof stamp === 'string' && KEY.test(key)) this.known.set(p, { stamp, key });
    } catch {
      // None yet (or unreadable): each image is read again once.
    }
  }

  /** What the image at vault path `p` shows as now; an unknown one is queued to be made. */
  state(p: string, info: AttachmentInfo): ImageState {
    const settled = this.settledState(p, info);
    if (settled) return settled;
    const stamp = attachmentStamp(info);
    this.queue.set(p, info);
    this.draining ??= this.drain();
    return { kind: 'pending', ...this.headerSize(p, stamp) };
  }

  /** What the image at vault path `p` shows as, if its copies (or its verdict) are known; null, and nothing queued, if not. */
  settledState(p: string, info: AttachmentInfo): ImageState | null {
    const known = this.known.get(p);
    if (known?.stamp !== attachmentStamp(info)) return null;
    if (!known.key) return { kind: 'original', reason: known.reason ?? 'it could not be read', warn: true };
    const made = this.madeFor(known.key);
    return made && stateOf(known.key, made);
  }

  /** The original's size as shown, from its header alone (a few KB read, nothing decoded), or null. */
  private headerSize(p: string, stamp: string): { width: number; height: number } | null {
    const known = this.headers.get(p);
    if (known?.stamp === stamp) return known.size;
    let size: { width: number; height: number } | null = null;
    try {
      // What image-size would read of the file itself (512 KB), through one checked handle.
      const head = readVaultHeadSync(this.vaultDir, p, 512 * 1024);
      if (!head) throw new Error('not a regular file');
      const { width, height, orientation } = imageSize(head);
      if (width && height && width * height <= MAX_INPUT_PIXELS) size = (orientation ?? 1) >= 5 ? { width: height, height: width } : { width, height };
    } catch {
      // No header it knows: shown without a size until sharp has its say.
    }
    if (this.headers.size > 10_000) this.headers.clear();
    this.headers.set(p, { stamp, size });
    return size;
  }

  /**
   * An image first shown after a plan listed its files (an edit's quick pass): its original
   * for now; its copies, once made or when they already are, come with a whole pass soon.
   */
  lateState(p: string, info: AttachmentInfo): ImageState {
    const state = this.state(p, info);
    if (state.kind !== 'ready') return state;
    if (this.reminders.size === 0) setImmediate(() => this.remind());
    this.reminders.add(p);
    return { kind: 'pending', width: state.width, height: state.height };
  }

  private reminders = new Set<string>();
  private remind(): void {
    const paths = [...this.reminders];
    this.reminders.clear();
    this.onReady?.(paths);
  }

  /**
   * Queues the copies of the raster images among `images` that are not made yet, as soon as the
   * notes showing them are read: made while the site is planned, a plan finds them made (a
   * snapshot, and a server's first build, plan again for copies still being made).
   */
  makeSoon(images: Iterable<[string, AttachmentInfo]>): void {
    for (const [p, info] of images) if (isRasterImage(p)) this.state(p, info);
  }

  /** Where a copy is kept. */
  fileOf(variant: ImageVariant): string {
    return path.join(this.dir, variant.file.slice(VARIANTS_PREFIX.length));
  }

  /** Resolves once every queued image is made (a static snapshot waits; the server never does). */
  async settled(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /** Copies are being made (or queued). */
  get busy(): boolean {
    return this.draining !== null;
  }

  private madeFor(key: string): Made | null {
    let made = this.made.get(key);
    if (made) return made;
    try {
      made = JSON.parse(readFileSync(path.join(this.dir, key, META_FILE), 'utf8')) as Made;
    } catch {
      return null;
    }
    this.made.set(key, made);
    return made;
  }

  private async drain(): Promise<void> {
    while (this.pruning) await this.pruning;
    const done: string[] = [];
    const scaledBefore = this.scaled;
    let toldAt = Date.now();
    try {
      for (;;) {
        for (let next = this.queue.entries().next(); !next.done; next = this.queue.entries().next()) {
          // A long queue (a vault's first build) shows what is made so far every few seconds.
          if (done.length && Date.now() - toldAt > TELL_EVERY_MS) {
            await this.remember();
            this.onReady?.(done.splice(0));
            toldAt = Date.now();
          }
          const [p, info] = next.value;
          this.queue.delete(p);
          try {
            await this.take(p, info);
            this.version++;
            done.push(p);
          } catch (err) {
            // The cache cannot be written (a full disk): the original is shown; tried again next time.
            log.warnOnce(`image:${p}`, `could not make smaller copies of ${p}: ${(err as Error).message}`);
          }
        }
        await this.remember();
        // An image asked for while the stamps were written is this drain's too: none is left queued without one.
        if (this.queue.size === 0) break;
      }
    } finally {
      this.draining = null;
    }
    // Said, so a build shows whether it made any (a second build of the same images makes none).
    const scaled = this.scaled - scaledBefore;
    if (scaled) log.info(`image copies: sharp read ${scaled} new image${scaled === 1 ? '' : 's'}`);
    if (done.length) this.onReady?.(done);
    // What an image showed before its content changed is now shown by none.
    if (done.length) this.pruneSoon();
  }

  /** `prune` in the background (after a whole read of the vault, an image's removal, a drain); a failure leaves the cache as it was. */
  pruneSoon(): void {
    this.prune().catch((err) => log.warn(`image copies: ${(err as Error).message}`));
  }

  /**
   * Forgets the images `inVault` says are gone, and removes the copies of contents no image
   * of the vault shows, once none has shown them for UNSHOWN_KEPT_MS (the first prune to find
   * them unshown notes when, in unused.json). Leaves everything as it is while copies are
   * being made; a drain asked for meanwhile waits for it. Resolves to the folders removed.
   */
  async prune(now = Date.now()): Promise<number> {
    const inVault = this.inVault;
    if (!inVault) return 0;
    while (this.pruning) await this.pruning;
    if (this.draining) return 0;
    const pruning = this.removeUnshown(inVault, now).finally(() => {
      this.pruning = null;
    });
    this.pruning = pruning;
    return pruning;
  }

  private async removeUnshown(inVault: (p: string) => boolean, now: number): Promise<number> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch {
      return 0; // no cache yet
    }
    const forgotten = [...this.known.keys()].filter((p) => !inVault(p));
    for (const p of forgotten) this.known.delete(p);
    const shown = new Set<string>();
    for (const { key } of this.known.values()) if (key) shown.add(key);
    const unusedBefore = await readUnused(path.join(this.dir, UNUSED_FILE));
    const unused: Record<string, number> = {};
    let removed = 0;
    for (const name of names) {
      // A mark of a content no image shows (a crash, then the image replaced) goes with its copies.
      if (name.startsWith(SCALING_MARK) && !shown.has(name.slice(SCALING_MARK.length))) {
        const stat = await fs.stat(path.join(this.dir, name)).catch(() => null);
        if (stat && now - stat.mtimeMs > UNSHOWN_KEPT_MS) await fs.rm(path.join(this.dir, name), { force: true });
        continue;
      }
      if (name.startsWith('.tmp-')) {
        const stat = await fs.stat(path.join(this.dir, name)).catch(() => null);
        if (stat && now - stat.mtimeMs > LEFT_BEHIND_MS) await fs.rm(path.join(this.dir, name), { recursive: true, force: true });
        continue;
      }
      if (!KEY.test(name) || shown.has(name)) continue;
      const since = unusedBefore[name] ?? now;
      if (now - since < UNSHOWN_KEPT_MS) {
        unused[name] = since;
        continue;
      }
      this.made.delete(name);
      await fs.rm(path.join(this.dir, name), { recursive: true, force: true });
      removed++;
    }
    // The stamps first: unused.json is the prune's last word, what a reader of the cache waits for.
    if (forgotten.length) await this.remember();
    await writeJsonAtomic(path.join(this.dir, UNUSED_FILE), unused);
    if (removed) log.info(`image copies: removed ${removed} folder${removed === 1 ? '' : 's'} no image of the vault has shown for ${UNSHOWN_KEPT_MS / 86_400_000} days`);
    return removed;
  }

  /** Learns the content key of `p` (reading it), and makes its copies unless they exist. */
  private async take(p: string, info: AttachmentInfo): Promise<void> {
    const stamp = attachmentStamp(info);
    if (info.size > MAX_INPUT_BYTES) {
      this.known.set(p, { stamp, key: null, reason: `it is larger than ${MAX_INPUT_BYTES / 1024 / 1024} MB` });
      return;
    }
    // Through one checked handle: the name may have become a link or a FIFO since the walk.
    const bytes = await readVaultFile(this.vaultDir, p, MAX_INPUT_BYTES);
    if (!bytes) {
      this.known.set(p, { stamp, key: null, reason: 'it could not be read as a regular file of the vault' });
      return;
    }
    const key = `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}-${RECIPE}`;
    if (!this.madeFor(key)) await this.make(key, bytes);
    this.known.set(p, { stamp, key });
  }

  /** Makes the copies into a folder of their own, renamed into place whole. */
  private async make(key: string, bytes: Buffer): Promise<void> {
    // Outside the verdict below: a scaler that cannot load says nothing about the image.
    const scaler = loadScaler(this.threads);
    let made: Made;
    let copies: Copy[] = [];
    if (!(await this.marks.begin(key))) made = { error: `reading it stopped the build process ${MAX_SCALING_TRIES} times`, warn: true };
    else {
      this.scaled++;
      try {
        ({ made, copies } = await scale(scaler, bytes));
      } catch (err) {
        const message = oneLine(err);
        const reason = /pixel limit/i.test(message) ? `it has more than ${MAX_INPUT_PIXELS / 1e6} million pixels` : `sharp cannot read it as an image (${message})`;
        made = { error: reason, warn: true };
      }
    }
    // Written here, not by eleventy-img: a width that failed leaves no other width still being written.
    const folder = path.join(this.dir, `.tmp-${key}-${randomBytes(4).toString('hex')}`);
    await fs.mkdir(folder, { recursive: true });
    try {
      for (const copy of copies) await fs.writeFile(path.join(folder, copy.name), copy.bytes);
      await fs.writeFile(path.join(folder, META_FILE), JSON.stringify(made));
      try {
        await fs.rename(folder, path.join(this.dir, key));
      } catch (err) {
        // Another build made the same folder meanwhile: theirs is as good.
        if (!['EEXIST', 'ENOTEMPTY'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
      }
      this.made.set(key, made);
    } finally {
      // Ended, with its verdict or with an error (a full disk) that leaves it to be tried again: no crash.
      await this.marks.end(key);
      await fs.rm(folder, { recursive: true, force: true });
    }
  }

  private async remember(): Promise<void> {
    const stamps: Record<string, [string, string]> = {};
    for (const [p, { stamp, key }] of this.known) if (key) stamps[p] = [stamp, key];
    await writeJsonAtomic(path.join(this.dir, STAMPS_FILE), stamps, { mkdir: true });
  }
}

/** unused.json as written, with anything that is no content key and time left out. */
async function readUnused(file: string): Promise<Record<string, number>> {
  try {
    const raw = JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
    if (!raw || typeof raw !== 'object') return {};
    return Object.fromEntries(Object.entries(raw).filter(([key, at]) => KEY.test(key) && Number.isFinite(at)));
  } catch {
    return {}; // none yet, or unreadable: each unshown folder is kept a week from now
  }
}

function stateOf(key: string, made: Made): ImageState {
  if ('error' in made) return { kind: 'original', reason: made.error, warn: made.warn };
  const variants = made.widths.map((width) => ({ width, file: `${VARIANTS_PREFIX}${key}/${width}.webp` }));
  return variants.length ? { kind: 'ready', width: made.width, height: made.height, variants } : { kind: 'original', reason: 'no copies were made', warn: false };
}

const oneLine = (err: unknown) => String((err as Error)?.message ?? err).split('\n')[0]!.slice(0, 200);

interface Scaler {
  sharp: typeof import('sharp');
  Image: typeof import('@11ty/eleventy-img').default;
}

/**
 * sharp and eleventy-img, loaded with the first image (a vault without one never loads
 * libvips). Required, not imported: a build's code runs from V8's code cache, where a
 * dynamic import() has no loader.
 */
function loadScaler(threads: number): Scaler {
  const require = createRequire(import.meta.url);
  const sharp = require('sharp') as typeof import('sharp');
  sharp.concurrency(threads);
  sharp.cache(false);
  return { sharp, Image: require('@11ty/eleventy-img') as Scaler['Image'] };
}

/** A copy's file name in its content key's folder, and its bytes. */
interface Copy {
  name: string;
  bytes: Buffer;
}

/** The copies of one image, by eleventy-img, in memory; throws for anything that is no usable image. */
async function scale({ sharp, Image }: Scaler, bytes: Buffer): Promise<{ made: Made; copies: Copy[] }> {
  const meta = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  if (!meta.width || !meta.height) throw new Error('it has no size');
  if (meta.width * meta.height > MAX_INPUT_PIXELS) {
    return { made: { error: `it has ${meta.width}×${meta.height} pixels, more than ${MAX_INPUT_PIXELS / 1e6} million`, warn: true }, copies: [] };
  }
  // An animated WebP would lose its frames.
  if ((meta.pages ?? 1) > 1) return { made: { error: 'it is animated', warn: false }, copies: [] };
  const turned = (meta.orientation ?? 1) >= 5;
  const width = turned ? meta.height : meta.width;
  const height = turned ? meta.width : meta.height;
  const widths = VARIANT_WIDTHS.filter((w) => w < width);
  if (width <= VARIANT_WIDTHS.at(-1)!) widths.push(width);
  const stats = await Image(bytes, {
    widths,
    formats: ['webp'],
    // Buffers, not files: it writes each width as it comes and would go on after another failed.
    dryRun: true,
    useCache: false,
    concurrency: 1,
    // failOn, given: eleventy-img's own default (failOnError: false) would scale a truncated file with a grey half.
    sharpOptions: { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'warning' },
  });
  const copies = stats.webp ?? [];
  return { made: { width, height, widths: copies.map((c) => c.width) }, copies: copies.map((c) => ({ name: `${c.width}.webp`, bytes: c.buffer })) };
}
