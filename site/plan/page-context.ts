// What every page planner shares: the model, the frame, formatters, the HTML
// cache and the small views (links, chips, cards) pages are made of. Each view
// has a signature: a page is re-rendered exactly when its signature changes.
import { encodeAddress, FRONT_PAGE, type Address } from '../../shared/model/addresses.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import type { SiteModel } from '../../shared/model/site-model.ts';
import { directionOf } from '../../shared/note/language.ts';
import { attachmentAddress, type AttachmentIndex } from '../read/attachments.ts';
import type { DiscussionMap, PlannedDiscussion } from './discussion.ts';
import { frameFormatters, gradientOf, type SiteFrame } from './frame.ts';
import type { Formatters } from './i18n.ts';
import { cutEmbed, fillPrepared, prepareNoteHtml, renderEmbedHtml, type EmbedFrame, type RenderLinks } from '../../shared/note/markdown.ts';
import { headingAnchor } from '../../shared/note/obsidian/headings.ts';
import { embedClosure, embeddedTest } from '../../shared/model/embeds.ts';
import { blockRef, type WikiRef } from '../../shared/wikilinks.ts';
import { FEED_BODIES_MAX, PlanMemory } from './plan-memory.ts';
import { digest } from './sig-digests.ts';
import { isRasterImage, type ImageState, type ImageVariants } from '../render/image-variants.ts';
import type { ImageView } from '../../shared/note/picture.ts';
import { folderNotes } from './explorer.ts';
import { baseHtml, MAX_BASES_PER_NOTE, tooManyBases } from './base-view.ts';
import { documentAddress, documentHtml, hostOf, isDocumentPath } from './documents.ts';

export interface LinkView {
  title: string;
  url: string;
}

export interface ChipView {
  label: string;
  url: string;
}

export interface CardView {
  title: string;
  url: string;
  dateIso: string;
  dateText: string;
  excerpt: string;
  tags: ChipView[];
  thumb: string | null;
  gradient: string;
  lang: string;
  dir: 'rtl' | 'ltr';
  /** Approved comments, as text ("3 comments"), when comments are on and there are some. */
  comments: string | null;
}

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

export class PageContext {
  readonly fmt: Formatters;
  // One plan asks for the same small views of a note many times (home, topics, feed).
  private chipsMemo = new Map<NoteRecord, ChipView[]>();
  private cardSigMemo = new Map<NoteRecord, string>();
  /** A note's card, made once for every list that shows it (home, topics, collections, their pages); remade when its comment count changes. */
  private cardMemo = new Map<NoteRecord, { comments: number; card: CardView }>();
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
  /** Each folder's published folder note, made once per plan (an edit that keeps shapes keeps them). */
  private folderNotesMemo: Map<string, NoteRecord> | null = null;
  /** Attachments referenced by visible notes and the frame (vault path → address). */
  readonly published = new Map<string, string>();
  /** Each published raster image as this plan saw it: its pages and the copies planned agree (plan.ts adoptImages). */
  readonly imageStates = new Map<string, ImageState>();
  /**
   * Set once the plan has listed its files: an image first shown after that (by an edit's
   * quick pass) shows its original until the next whole plan takes its copies in.
   */
  imagesClosed = false;
  /** The first visible note showing each attachment (the one a warning about it names). */
  readonly shownBy = new Map<string, NoteRecord>();
  /** The vault's publish.css, when it has one: every page loads it after the blog's stylesheet. */
  publishCss: string | null = null;
  /** Each post's feed id, fixed at its first publication (feed-ids.ts); without it, its address. */
  feedIds: { of(path: string): Address | undefined } | null = null;
  /** The plan's moment: what a base's `now()` reads (the frame holds no clock finer than the year). */
  readonly now = Date.now();

  /** Changes when any topic's label or address changes (tag chips depend on it). */
  readonly topicsKey: string;
  /**
   * What every page's signature depends on beyond its own notes: the frame, topic
   * labels, attachments, where links point and which notes are visible.
   */
  readonly world: unknown[];
  /**
   * The path of the note `/` shows whole (spec D.3, and the blog's home intro), or null: it
   * has no page of its own, links to it lead to `/`, and its address answers 301 there.
   */
  readonly frontPath: string | null;

  constructor(
    readonly model: SiteModel,
    readonly frame: SiteFrame,
    readonly frameSig: string,
    readonly attachments: AttachmentIndex,
    /** Approved comments and mentions by note path (CONTRACT §8); null while comments are off. */
    readonly discussion: DiscussionMap | null = null,
    /** Smaller copies of raster images (image-variants.ts); null: originals only. */
    readonly images: ImageVariants | null = null,
    /** What the builder keeps from one plan to the next. */
    readonly memory: PlanMemory = new PlanMemory(),
  ) {
    this.fmt = frameFormatters(frame);
    this.topicsKey = model.topics.topics.map((t) => `${t.key}\u0001${t.label}\u0001${t.address}`).join('\u0002');
    const front = model.homeNote && (frame.layout === 'default' || frame.homeMode !== 'dashboard') ? model.homeNote : null;
    this.frontPath = front?.path ?? null;
    this.world = [frameSig, this.topicsKey, attachments.version, images?.version, model.resolver.generation, model.visibleKey, this.frontPath];
  }

  /** A post's RSS guid: the address it was first published at, which a rename never changes. */
  feedId(note: NoteRecord): string {
    return this.absolute(this.feedIds?.of(note.path) ?? note.address);
  }

  /** Where a visible note is read: its address, or `/` for the front note. */
  addressOf(note: NoteRecord): Address {
    return note.path === this.frontPath ? FRONT_PAGE : note.address;
  }

  /**
   * Lets go of what was worked out for these records (an edit swapped newer records in:
   * the older ones' views, and views of other notes made from them, are stale).
   */
  forget(records: Iterable<NoteRecord>): void {
    for (const note of records) {
      this.chipsMemo.delete(note);
      this.cardSigMemo.delete(note);
      this.cardMemo.delete(note);
      this.bodySigMemo.delete(note);
      this.ownSigMemo.delete(note);
      this.closureMemo.delete(note);
    }
    this.keepsReading = () => true;
    this.documentMemo.clear();
    this.basesShown.clear();
  }

  /** Each folder's published folder note (explorer.ts), worked out once for every page. */
  folderNotes(): Map<string, NoteRecord> {
    return (this.folderNotesMemo ??= folderNotes(this.model.visible));
  }

  /** Registers the attachments a visible note shows (its embeds and banner) for publishing. */
  publishAttachmentsOf(note: NoteRecord): void {
    for (const target of note.embeds) {
      const p = this.attachments.resolve(target, note);
      if (p) {
        this.publish(p);
        if (!this.shownBy.has(p)) this.shownBy.set(p, note);
      }
    }
    if (note.banner) this.imageUrl(note.banner, note);
  }

  url(address: Address): string {
    let url = this.memory.encoded.get(address);
    if (url === undefined) {
      if (this.memory.encoded.size > 200_000) this.memory.encoded.clear();
      url = encodeAddress(address);
      this.memory.encoded.set(address, url);
    }
    return url;
  }

  absolute(address: Address): string {
    return this.frame.base + this.url(address);
  }

  link(note: NoteRecord): LinkView {
    return { title: note.title, url: this.url(this.addressOf(note)) };
  }

  linkSig(note: NoteRecord | null): string {
    return note ? `${this.addressOf(note)}\u0001${note.title}` : '-';
  }

  /** Tag chips a visitor sees: EXCLUDE_TAGS removed, localised labels, original addresses. */
  chips(note: NoteRecord): ChipView[] {
    const known = this.chipsMemo.get(note);
    if (known) return known;
    const out: ChipView[] = [];
    for (const tag of note.tags) {
      const topic = this.model.topics.byKey.get(tag.toLowerCase());
      if (!topic) continue;
      out.push({ label: topic.label, url: this.url(topic.address) });
    }
    this.chipsMemo.set(note, out);
    return out;
  }

  chipsSig(note: NoteRecord): string {
    if (note.tags.length === 0) return '';
    let sig = '';
    for (const c of this.chips(note)) sig += `${c.label}>${c.url},`;
    return sig;
  }

  /** An image address for a banner value: an https URL as it is, a vault attachment when it exists. */
  imageUrl(value: string | null, from: NoteRecord | null): string | null {
    if (!value) return null;
    if (/^https:\/\//i.test(value)) return value;
    if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return null;
    const p = this.attachments.resolve(value, from);
    if (!p) return null;
    return this.publish(p);
  }

  publish(p: string): string {
    let address = this.published.get(p);
    if (!address) {
      // A base or canvas is a page (documents.ts), not a file copied as it is.
      address = isDocumentPath(p) ? this.url(documentAddress(p)) : attachmentAddress(p);
      this.published.set(p, address);
    }
    return address;
  }

  /** The topic page of a tag, or null (an excluded tag, or one no post carries). */
  tagUrl(tag: string): string | null {
    const topic = this.model.topics.byKey.get(tag.toLowerCase());
    return topic ? this.url(topic.address) : null;
  }

  /** How the image at vault path `p` is shown by this plan's pages (null: not a raster image, or gone). */
  imageState(p: string): ImageState | null {
    if (!this.images || !isRasterImage(p)) return null;
    let state = this.imageStates.get(p);
    if (state) return state;
    const info = this.attachments.get(p);
    if (!info) return null;
    state = this.imagesClosed ? this.images.lateState(p, info) : this.images.state(p, info);
    this.imageStates.set(p, state);
    return state;
  }

  /** What an embedded image shows: its original, and its size and copies when they are made (`pictures` false: a feed's plain image). */
  private imageView(target: string, note: NoteRecord, pictures: boolean): ImageView | null {
    const p = this.attachments.resolve(target, note);
    if (!p) return null;
    const src = this.publish(p);
    const state = this.imageState(p);
    if (!state || state.kind === 'original') return { src };
    const view = { src, width: state.width, height: state.height };
    if (state.kind === 'pending') return view;
    return pictures ? { ...view, webp: state.variants.map((v) => ({ url: '/' + v.file, width: v.width })) } : view;
  }

  private renderLinks(note: NoteRecord, pictures = true): RenderLinks {
    return {
      note: (target) => {
        const other = this.model.resolver.resolve(target, note);
        return other && this.model.isVisible(other) ? { href: this.url(this.addressOf(other)), title: other.title, headings: other.headings } : null;
      },
      attachment: (target) => {
        const p = this.attachments.resolve(target, note);
        return p ? this.publish(p) : null;
      },
      image: (target) => this.imageView(target, note, pictures),
      tag: (tag) => this.tagUrl(tag),
      embed: (ref, frame) => this.embedHtml(note, ref, frame, pictures),
      base: (source) => this.baseBlockHtml(note, source),
      document: (target) => {
        const p = this.attachments.resolve(target, note);
        return p && isDocumentPath(p) ? this.embeddedDocumentHtml(note, p) : null;
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
    if (!shown.has(key) && shown.size >= MAX_BASES_PER_NOTE) return tooManyBases(this);
    shown.add(key);
    return this.memoDocument(key, () => baseHtml(this, source, hostOf(note)));
  }

  /** The base or canvas at vault path `p` as `note` embeds it. */
  embeddedDocumentHtml(note: NoteRecord, p: string): string {
    this.publish(p);
    return this.memoDocument(`${note.path}\u0000file\u0000${p}`, () => documentHtml(this, p, hostOf(note)));
  }

  /**
   * Markdown that is no note's (a canvas's text node) as the site renders notes, its links
   * resolved from `from`'s folder; it embeds nothing (a canvas shows notes by file nodes).
   */
  textHtml(markdown: string, from: NoteRecord): string {
    const { embed: _embed, base: _base, document: _document, ...links } = this.renderLinks(from);
    return fillPrepared(prepareNoteHtml(markdown, ''), links);
  }

  /** CONTRACT §7: only a visible note is embedded; a missing or unpublished one shows nothing, a cycle stops. */
  private embedHtml(from: NoteRecord, ref: WikiRef, frame: EmbedFrame, pictures: boolean): string | null {
    const target = this.model.resolver.resolve(ref.target, from);
    if (!target || !this.model.isVisible(target)) return null;
    const key = `${target.path}#${ref.subpath.join('#')}`;
    if (frame.stack.includes(key) || frame.stack.includes(`${target.path}#`)) return cutEmbed(frame);
    frame.stack.push(key);
    try {
      const block = blockRef(ref.subpath);
      const anchor = block !== null ? `#^${encodeURIComponent(block)}` : headingAnchor(target.headings, ref.subpath);
      return renderEmbedHtml(target.body, ref, this.renderLinks(target, pictures), frame, { href: this.url(this.addressOf(target)) + anchor, title: target.title, prepared: target.prepared }, `${target.path}\u0000${pictures}`);
    } finally {
      frame.stack.pop();
    }
  }

  /** Visible notes the note's page shows by embedding them (its dependencies). */
  embedded(note: NoteRecord): NoteRecord[] {
    if (note.transclusions.length === 0) return [];
    let list = this.closureMemo.get(note);
    if (!list) {
      list = embedClosure(note, this.model);
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
      const other = this.model.resolver.resolve(target, note);
      // A link shows the target's address and an anchor from its headings: its text otherwise changes nothing here.
      parts.push(other && this.model.isVisible(other) ? `${other.address}\u0003${headingsKey(other)}` : '-');
    }
    for (const target of note.embeds) {
      const p = this.attachments.resolve(target, note);
      if (p) this.publish(p);
      parts.push(p ? p + imageSig(this.imageState(p)) : '-');
    }
    parts.push(this.chipsSig(note));
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
    if (!(this.keepsReading ??= embeddedTest(this.model))(note.path)) note.prepared = null;
    return fillPrepared(prepared, this.renderLinks(note), `${note.path}#`);
  }

  /**
   * The body's HTML for a full-content feed item. The note's own rendering is left for its
   * page; each item is remembered, so one edit renders only its own item again.
   */
  feedHtml(note: NoteRecord): string {
    const sig = `${this.frameSig}\u0000${this.bodySig(note)}`;
    const { feedBodies } = this.memory;
    const known = feedBodies.get(note.path);
    if (known && known.note === note && known.sig === sig) return known.html;
    const prepared = note.prepared ?? prepareNoteHtml(note.body, note.title, note.path.toLowerCase().endsWith('.tex'));
    // A feed item shows no base (its rows change with other notes, which a feed item's signature does not follow), and links an embedded base or canvas.
    const html = fillPrepared(prepared, { ...this.renderLinks(note, false), base: () => '', document: () => null }, `${note.path}#`);
    feedBodies.delete(note.path);
    if (feedBodies.size >= FEED_BODIES_MAX) feedBodies.delete(feedBodies.keys().next().value!);
    feedBodies.set(note.path, { note, sig, html });
    return html;
  }

  /** The note's approved comments and mentions, when comments are on and it has some. */
  discussionOf(note: NoteRecord): PlannedDiscussion | null {
    return this.discussion?.get(note.path) ?? null;
  }

  /** spec 2.5: approved comments, the author's replies included; 0 while comments are off. */
  commentCount(note: NoteRecord): number {
    return this.discussion?.get(note.path)?.count ?? 0;
  }

  /** spec D.3: posts ranked by approved comments (the newer first among equals), those with any. */
  mostDiscussed(limit: number): NoteRecord[] {
    if (!this.discussion || this.discussion.size === 0) return [];
    return this.model.posts
      .filter((p) => this.commentCount(p) > 0)
      .sort((a, b) => this.commentCount(b) - this.commentCount(a))
      .slice(0, limit);
  }

  commentsText(n: number): string {
    return this.frame.strings.commentCount(this.fmt.number(n), n);
  }

  card(note: NoteRecord): CardView {
    const comments = this.commentCount(note);
    const known = this.cardMemo.get(note);
    if (known?.comments === comments) return known.card;
    const card: CardView = {
      title: note.title,
      url: this.url(this.addressOf(note)),
      dateIso: new Date(note.date.ms).toISOString(),
      dateText: this.fmt.date(note.date.ms),
      excerpt: note.excerpt,
      tags: this.chips(note),
      thumb: this.imageUrl(note.banner, note),
      gradient: gradientOf(note.title),
      lang: note.lang,
      dir: directionOf(note.lang),
      comments: comments > 0 ? this.commentsText(comments) : null,
    };
    this.cardMemo.set(note, { comments, card });
    return card;
  }

  cardSig(note: NoteRecord): string {
    let sig = this.cardSigMemo.get(note);
    if (sig === undefined) {
      sig = this.memory.cardSigs.get(
        note,
        [this.topicsKey, this.attachments.version],
        () => `${note.address}\u0001${note.hash}\u0001${note.date.ms}\u0001${this.chipsSig(note)}\u0001${this.imageUrl(note.banner, note) ?? ''}`,
      );
      this.cardSigMemo.set(note, sig);
    }
    return sig;
  }
}

/** What a page showing an image depends on: whether its copies are made, and which. */
function imageSig(state: ImageState | null): string {
  if (!state) return '';
  if (state.kind === 'ready') return `\u0004${state.width}x${state.height}:${state.variants.map((v) => v.file).join(',')}`;
  return state.kind === 'pending' ? `\u0004pending:${state.width}x${state.height}` : '\u0004original';
}
