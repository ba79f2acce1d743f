// What every page planner shares: the model, the frame, formatters, the HTML
// cache and the small views (links, chips, cards) pages are made of. Each view
// has a signature: a page is re-rendered exactly when its signature changes.
import { encodeAddress, type Address } from '../../shared/model/addresses.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import type { SiteModel } from '../../shared/model/site-model.ts';
import { directionOf } from '../../shared/note/language.ts';
import { attachmentAddress, type AttachmentIndex } from './attachments.ts';
import { frameFormatters, gradientOf, type SiteFrame } from './frame.ts';
import type { Formatters } from './i18n.ts';
import { renderNoteHtml, type RenderLinks } from '../../shared/note/markdown.ts';
import { SigCache } from './sig-cache.ts';

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
}

// Encoded addresses never change: one cache for the life of the process.
const encoded = new Map<string, string>();
const cardSigs = new SigCache<NoteRecord>();

export class PageContext {
  readonly fmt: Formatters;
  // One plan asks for the same small views of a note many times (home, topics, feed).
  private chipsMemo = new Map<NoteRecord, ChipView[]>();
  private cardSigMemo = new Map<NoteRecord, string>();
  private bodySigMemo = new Map<NoteRecord, string>();
  /** Attachments referenced by visible notes and the frame (vault path → address). */
  readonly published = new Map<string, string>();

  /** Changes when any topic's label or address changes (tag chips depend on it). */
  readonly topicsKey: string;
  /**
   * What every page's signature depends on beyond its own notes: the frame, topic
   * labels, attachments, where links point and which notes are visible.
   */
  readonly world: unknown[];

  constructor(
    readonly model: SiteModel,
    readonly frame: SiteFrame,
    readonly frameSig: string,
    readonly attachments: AttachmentIndex,
    private readonly htmlCache: Map<string, { key: string; html: string }>,
  ) {
    this.fmt = frameFormatters(frame);
    this.topicsKey = model.topics.topics.map((t) => `${t.key}\u0001${t.label}\u0001${t.address}`).join('\u0002');
    this.world = [frameSig, this.topicsKey, attachments.version, model.resolver.generation, model.visibleKey];
  }

  /** Registers the attachments a visible note shows (its embeds and banner) for publishing. */
  publishAttachmentsOf(note: NoteRecord): void {
    for (const target of note.embeds) {
      const p = this.attachments.resolve(target, note);
      if (p) this.publish(p);
    }
    if (note.banner) this.imageUrl(note.banner, note);
  }

  url(address: Address): string {
    let url = encoded.get(address);
    if (url === undefined) {
      if (encoded.size > 200_000) encoded.clear();
      url = encodeAddress(address);
      encoded.set(address, url);
    }
    return url;
  }

  absolute(address: Address): string {
    return this.frame.base + this.url(address);
  }

  link(note: NoteRecord): LinkView {
    return { title: note.title, url: this.url(note.address) };
  }

  linkSig(note: NoteRecord | null): string {
    return note ? `${note.address}\u0001${note.title}` : '-';
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
      address = attachmentAddress(p);
      this.published.set(p, address);
    }
    return address;
  }

  private renderLinks(note: NoteRecord): RenderLinks {
    return {
      note: (target) => {
        const other = this.model.resolver.resolve(target, note);
        return other && this.model.isVisible(other) ? { href: this.url(other.address), title: other.title } : null;
      },
      attachment: (target) => {
        const p = this.attachments.resolve(target, note);
        return p ? this.publish(p) : null;
      },
    };
  }

  /** What the body's links and embeds resolve to: the rendered HTML depends on it. */
  bodySig(note: NoteRecord): string {
    const known = this.bodySigMemo.get(note);
    if (known !== undefined) return known;
    const parts: string[] = [];
    for (const target of note.links) {
      const other = this.model.resolver.resolve(target, note);
      parts.push(other && this.model.isVisible(other) ? other.address : '-');
    }
    for (const target of note.embeds) {
      const p = this.attachments.resolve(target, note);
      if (p) this.publish(p);
      parts.push(p ?? '-');
    }
    const sig = parts.join('\u0001');
    this.bodySigMemo.set(note, sig);
    return sig;
  }

  html(note: NoteRecord): string {
    const key = `${note.hash}\u0002${this.bodySig(note)}`;
    const cached = this.htmlCache.get(note.path);
    if (cached && cached.key === key) return cached.html;
    const html = renderNoteHtml(note.body, note.title, this.renderLinks(note), note.path.toLowerCase().endsWith('.tex'));
    this.htmlCache.set(note.path, { key, html });
    return html;
  }

  card(note: NoteRecord): CardView {
    return {
      title: note.title,
      url: this.url(note.address),
      dateIso: new Date(note.date.ms).toISOString(),
      dateText: this.fmt.date(note.date.ms),
      excerpt: note.excerpt,
      tags: this.chips(note),
      thumb: this.imageUrl(note.banner, note),
      gradient: gradientOf(note.title),
      lang: note.lang,
      dir: directionOf(note.lang),
    };
  }

  cardSig(note: NoteRecord): string {
    let sig = this.cardSigMemo.get(note);
    if (sig === undefined) {
      sig = cardSigs.get(
        note,
        [this.topicsKey, this.attachments.version],
        () => `${note.address}\u0001${note.hash}\u0001${note.date.ms}\u0001${this.chipsSig(note)}\u0001${this.imageUrl(note.banner, note) ?? ''}`,
      );
      this.cardSigMemo.set(note, sig);
    }
    return sig;
  }
}
