// What every page planner shares: the model, the frame, formatters, the notes' bodies
// (note-bodies.ts) and the small views (links, chips, cards) pages are made of. Each view
// has a signature: a page is re-rendered exactly when its signature changes.
import { authorMs } from '../../shared/note/dates.ts';
import { encodeAddress, fileAddress, FRONT_PAGE, isInSitesFolder, type Address } from '../../shared/model/addresses.ts';
import { folderNotesOf } from '../../shared/model/categories.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import type { SiteModel } from '../../shared/model/site-model.ts';
import { directionOf } from '../../shared/note/language.ts';
import { attachmentAddress, type AttachmentIndex } from '../read/attachments.ts';
import type { DiscussionMap, PlannedDiscussion } from './discussion.ts';
import { frameFormatters, gradientOf, type SiteFrame } from './frame.ts';
import type { Formatters } from './i18n.ts';
import { PlanMemory } from './plan-memory.ts';
import { isRasterImage, type ImageState, type ImageVariants } from '../render/image-variants.ts';
import { documentAddress, isDocumentPath } from './documents.ts';
import { NoteBodies } from './note-bodies.ts';

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

export class PageContext {
  readonly fmt: Formatters;
  /** Each note's body as its pages show it, and what that depends on (note-bodies.ts). */
  readonly bodies = new NoteBodies(this);
  // One plan asks for the same small views of a note many times (home, topics, feed).
  private chipsMemo = new Map<NoteRecord, ChipView[]>();
  private cardSigMemo = new Map<NoteRecord, string>();
  /** A note's card, made once for every list that shows it (home, topics, collections, their pages); remade when its comment count changes. */
  private cardMemo = new Map<NoteRecord, { comments: number; card: CardView }>();
  /** Each folder's published folder note, made once per plan (an edit that keeps shapes keeps them). */
  private folderNotesMemo: Map<string, NoteRecord> | null = null;
  /** Attachments referenced by visible notes and the frame (vault path → address). */
  readonly published = new Map<string, string>();
  /** Of those, the ones in a folder the site keeps for itself: registered (plan.ts warns of them), never shown. */
  private withheld = new Set<string>();
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
    const list = [...records];
    for (const note of list) {
      this.chipsMemo.delete(note);
      this.cardSigMemo.delete(note);
      this.cardMemo.delete(note);
    }
    this.bodies.forget(list);
  }

  /** Each folder's published folder note (explorer.ts), worked out once for every page. */
  folderNotes(): Map<string, NoteRecord> {
    // Each folder's published folder note (`Folder/Folder.md` before `Folder/index.md`), from the visible notes once.
    return (this.folderNotesMemo ??= folderNotesOf(this.model.visible));
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

  /**
   * Registers the vault file `p` for publishing (plan.ts copies what is registered); its
   * address, or null when that lies in a folder the site keeps for itself (`_s`, `_img`…),
   * where nothing of the vault is published and a page shows nothing of it.
   */
  publish(p: string): string | null {
    let address = this.published.get(p);
    if (!address) {
      // A base or canvas is a page (documents.ts), not a file copied as it is.
      address = isDocumentPath(p) ? this.url(documentAddress(p)) : attachmentAddress(p);
      this.published.set(p, address);
      if (isInSitesFolder(isDocumentPath(p) ? documentAddress(p) : fileAddress(p))) this.withheld.add(p);
    }
    return this.withheld.has(p) ? null : address;
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

  /**
   * Whether a page, card or search result shows the note's date: a blog's posts, a garden's
   * notes whose frontmatter gives one (the rest would all show the day the server met them).
   */
  showsDate(note: NoteRecord): boolean {
    return this.frame.layout === 'default' ? note.date.source === 'frontmatter' : !note.page;
  }

  card(note: NoteRecord): CardView {
    const comments = this.commentCount(note);
    const known = this.cardMemo.get(note);
    if (known?.comments === comments) return known.card;
    const card: CardView = {
      title: note.title,
      url: this.url(this.addressOf(note)),
      dateIso: new Date(note.date.ms).toISOString(),
      dateText: this.showsDate(note) ? this.fmt.date(authorMs(note.date)) : '',
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
