// A note's body as its pages show it: rendered once when the note was read, with holes
// the rest of the vault fills per page (where a link points, an embedded note, an image's
// copies, a base's rows), and the signature of what that filling depends on, so a page is
// made again exactly when its body would change. One per plan, beside its PageContext.
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { embedClosure, embeddedTest } from '../../shared/model/embeds.ts';
import { fillPrepared, prepareNoteHtml, renderEmbedHtml, type EmbedFrame, type EmbedRef, type RenderLinks } from '../../shared/note/markdown.ts';
import type { RenderSpent } from '../../shared/note/render-budget.ts';
import { headingAnchor } from '../../shared/note/obsidian/headings.ts';
import type { ImageView } from '../../shared/note/picture.ts';
import { blockRef, type WikiRef } from '../../shared/wikilinks.ts';
import type { ImageState } from '../render/image-variants.ts';
import { baseHtml, baseIgnoresHost, MAX_BASES_PER_NOTE, tooManyBases, type ShownViews } from './base-view.ts';
import { documentHtml, documentReadsHost, hostOf, isDocumentPath } from './documents.ts';
import type { PageContext } from './page-context.ts';
import { FEED_BODIES_MAX } from './plan-memory.ts';
import { digest } from './sig-digests.ts';

/** What a link's anchor is worked out from: the target's headings (their levels, texts and ids), remembered per record. */
const headingsKeys = new WeakMap<NoteRecord, string>();
export function headingsKey(note: NoteRecord): string {
  let key = headingsKeys.get(note);
  if (key === undefined) {
    key = note.headings.map((h) => `${h.level}\u0005${h.text}\u0005${h.source ?? ''}\u0005${h.id}`).join('\u0004');
    headingsKeys.set(note, key);
  }
  return key;
}

export class NoteBodies {
  private bodySigMemo = new Map<NoteRecord, string>();
  private ownSigMemo = new Map<NoteRecord, string>();
  private closureMemo = new Map<NoteRecord, NoteRecord[]>();
  /** Whose rendering at reading a page keeps for the pass's embeds: notes other pages embed, found once a plan; after an edit, any (only its notes were read). */
  private keepsReading: ((path: string) => boolean) | null = null;
  /**
   * Bases and canvases rendered for this plan (by host and source), kept from a page's
   * signature to its rendering; any edit lets them all go (a base reads every note).
   */
  private documentMemo = new Map<string, string>();
  /** The base blocks each note has shown (MAX_BASES_PER_NOTE). */
  private basesShown = new Map<string, Set<string>>();

  constructor(private readonly ctx: PageContext) {}

  /** Lets go of what was worked out for these records (PageContext.forget). */
  forget(records: Iterable<NoteRecord>): void {
    for (const note of records) {
      this.bodySigMemo.delete(note);
      this.ownSigMemo.delete(note);
      this.closureMemo.delete(note);
    }
    this.keepsReading = () => true;
    this.documentMemo.clear();
    this.basesShown.clear();
  }

  /** What an embedded image shows: its original, and its size and copies when they are made (`pictures` false: a feed's plain image). */
  private imageView(target: string, note: NoteRecord, pictures: boolean): ImageView | null {
    const p = this.ctx.attachments.resolve(target, note);
    if (!p) return null;
    const src = this.ctx.publish(p);
    if (src === null) return null;
    // Shown, so its smaller copies are planned (plan.ts planImageCopies) when a page promises them: a canvas's
    // text card or a base's cover shows pictures no note's embeds name.
    if (!this.ctx.shownBy.has(p)) this.ctx.shownBy.set(p, note);
    const state = this.ctx.imageState(p);
    if (!state || state.kind === 'original') return { src };
    const view = { src, width: state.width, height: state.height };
    if (state.kind === 'pending') return view;
    return pictures ? { ...view, webp: state.variants.map((v) => ({ url: '/' + v.file, width: v.width })) } : view;
  }

  private renderLinks(note: NoteRecord, pictures = true): RenderLinks {
    return {
      note: (target) => {
        const other = this.ctx.model.resolver.resolve(target, note);
        return other && this.ctx.model.isVisible(other) ? { href: this.ctx.url(this.ctx.addressOf(other)), title: other.title, headings: other.headings } : null;
      },
      attachment: (target) => {
        const p = this.ctx.attachments.resolve(target, note);
        return p ? this.ctx.publish(p) : null;
      },
      image: (target) => this.imageView(target, note, pictures),
      tag: (tag) => this.ctx.tagUrl(tag),
      embed: (ref, frame) => this.embedHtml(note, ref, frame, pictures),
      base: (source) => this.baseBlockHtml(note, source),
      document: (target, subpath) => {
        const p = this.ctx.attachments.resolve(target, note);
        // An embedded base shows one view: the one named after `#`, else its first (base-view.ts).
        return p && isDocumentPath(p) ? this.embeddedDocumentHtml(note, p, { embed: subpath?.[0] ?? null }) : null;
      },
    };
  }

  private memoDocument(key: string, make: () => string): string {
    let html = this.documentMemo.get(key);
    if (html === undefined) this.documentMemo.set(key, (html = make()));
    return html;
  }

  /** A ```base block of `note` as its page shows it (`this` is the note); past MAX_BASES_PER_NOTE, a sentence. */
  baseBlockHtml(note: NoteRecord, source: string): string {
    const key = `${note.path}\u0000base\u0000${source}`;
    const shown = this.basesShown.get(note.path) ?? new Set<string>();
    this.basesShown.set(note.path, shown);
    if (!shown.has(key) && shown.size >= MAX_BASES_PER_NOTE) return tooManyBases(this.ctx);
    shown.add(key);
    // A base not naming `this` shows the same in every note: made once a pass.
    return this.memoDocument(baseIgnoresHost(source) ? `\u0000base\u0000${source}` : key, () => baseHtml(this.ctx, source, hostOf(note)));
  }

  /** The base or canvas at vault path `p` as `note` embeds it (`shown`: a base's views; all of them for the page's signature). */
  embeddedDocumentHtml(note: NoteRecord, p: string, shown: ShownViews = 'all'): string {
    this.ctx.publish(p);
    const host = documentReadsHost(this.ctx, p) ? note.path : '';
    const views = shown === 'all' ? '' : `\u0000${shown.embed ?? ''}`;
    return this.memoDocument(`${host}\u0000file\u0000${p}${views}`, () => documentHtml(this.ctx, p, hostOf(note), shown));
  }

  /**
   * Markdown that is no note's (a canvas's text node) as the site renders notes, its links
   * resolved from `from`'s folder; it embeds nothing (a canvas shows notes by file nodes).
   * `spent`: the budget the canvas's text nodes share (render-budget.ts).
   */
  textHtml(markdown: string, from: NoteRecord, spent: RenderSpent): string {
    const { embed: _embed, base: _base, document: _document, ...links } = this.renderLinks(from);
    return fillPrepared(prepareNoteHtml(markdown, '', false, spent), links);
  }

  /** CONTRACT §7: only a visible note is embedded; a missing or unpublished one shows nothing, a cycle stops (renderEmbedHtml). */
  private embedHtml(from: NoteRecord, ref: EmbedRef, frame: EmbedFrame, pictures: boolean): string | null {
    // `![[#Part]]` embeds a part of the note it is written in.
    const target = ref.target === '' ? from : this.ctx.model.resolver.resolve(ref.target, from);
    if (!target || !this.ctx.model.isVisible(target)) return null;
    const block = blockRef(ref.subpath);
    const anchor = block !== null ? `#^${encodeURIComponent(block)}` : headingAnchor(target.headings, ref.subpath);
    const source = { path: target.path, href: this.ctx.url(this.ctx.addressOf(target)) + anchor, title: target.title, prepared: target.prepared };
    return renderEmbedHtml(target.body, ref, this.renderLinks(target, pictures), frame, source, `${target.path}\u0000${pictures}`);
  }

  /** Visible notes the note's page shows by embedding them (its dependencies). */
  embedded(note: NoteRecord): NoteRecord[] {
    if (note.transclusions.length === 0) return [];
    let list = this.closureMemo.get(note);
    if (!list) {
      list = embedClosure(note, this.ctx.model);
      this.closureMemo.set(note, list);
    }
    return list;
  }

  /** KaTeX's stylesheet and mermaid's script: only pages whose body (embeds included) needs them. */
  needs(note: NoteRecord): { math: boolean; mermaid: boolean } {
    let math = note.math;
    let mermaid = note.mermaid;
    for (const other of this.embedded(note)) {
      math ||= other.math;
      mermaid ||= other.mermaid;
    }
    return { math, mermaid };
  }

  /** What the note's own links, files and tags resolve to. */
  private ownSig(note: NoteRecord): string {
    const known = this.ownSigMemo.get(note);
    if (known !== undefined) return known;
    const parts: string[] = [];
    for (const target of note.links) {
      const other = this.ctx.model.resolver.resolve(target, note);
      // A link shows the target's address and an anchor from its headings: its text otherwise changes nothing here.
      parts.push(other && this.ctx.model.isVisible(other) ? `${other.address}\u0003${headingsKey(other)}` : '-');
    }
    for (const target of note.embeds) {
      const p = this.ctx.attachments.resolve(target, note);
      if (p) this.ctx.publish(p);
      parts.push(p ? p + imageSig(this.ctx.imageState(p)) : '-');
    }
    parts.push(this.ctx.chipsSig(note));
    const sig = digest(parts.join('\u0001')); // kept as a digest, as every signature that outlives its pass (sig-cache.ts)
    this.ownSigMemo.set(note, sig);
    return sig;
  }

  /**
   * What the rendered body depends on beyond the note's text: where its links and
   * files resolve, its tags' topics, and every note it embeds (their text and links).
   */
  bodySig(note: NoteRecord): string {
    const known = this.bodySigMemo.get(note);
    if (known !== undefined) return known;
    const embedded = this.embedded(note);
    let sig = this.ownSig(note);
    if (embedded.length > 0) {
      for (const other of embedded) sig += `\u0002${other.path}\u0003${other.hash}\u0003${other.address}\u0003${this.ownSig(other)}`;
      sig = digest(sig);
    }
    this.bodySigMemo.set(note, sig);
    return sig;
  }

  /**
   * The body's HTML for a page: the note was rendered when it was read, and the vault's
   * answers are filled in. That rendering serves its page, and the pass's embeds of it, and is
   * let go (memory holds records, not pages); a page made again later renders its note again.
   */
  html(note: NoteRecord): string {
    const prepared = note.prepared ?? prepareNoteHtml(note.body, note.title, note.path.toLowerCase().endsWith('.tex'));
    if (!(this.keepsReading ??= embeddedTest(this.ctx.model))(note.path)) note.prepared = null;
    return fillPrepared(prepared, this.renderLinks(note), note.path);
  }

  /**
   * The body's HTML for a full-content feed item. The note's own rendering is left for its
   * page; each item is remembered, so one edit renders only its own item again.
   */
  feedHtml(note: NoteRecord): string {
    const sig = `${this.ctx.frameSig}\u0000${this.bodySig(note)}`;
    const { feedBodies } = this.ctx.memory;
    const known = feedBodies.get(note.path);
    if (known && known.note === note && known.sig === sig) return known.html;
    const prepared = note.prepared ?? prepareNoteHtml(note.body, note.title, note.path.toLowerCase().endsWith('.tex'));
    // A feed item shows no base (its rows change with other notes, which a feed item's signature does not follow), and links an embedded base or canvas.
    const html = fillPrepared(prepared, { ...this.renderLinks(note, false), base: () => '', document: () => null }, note.path);
    feedBodies.delete(note.path);
    if (feedBodies.size >= FEED_BODIES_MAX) feedBodies.delete(feedBodies.keys().next().value!);
    feedBodies.set(note.path, { note, sig, html });
    return html;
  }
}

/** What a page showing an image depends on: whether its copies are made, and which. */
function imageSig(state: ImageState | null): string {
  if (!state) return '';
  if (state.kind === 'ready') return `\u0004${state.width}x${state.height}:${state.variants.map((v) => v.file).join(',')}`;
  return state.kind === 'pending' ? `\u0004pending:${state.width}x${state.height}` : '\u0004original';
}
