// One note as the public side sees it: everything derived from its text, its path
// and its creation time, computed once per change of the file.
import { drawingNoteBody, wholeLink, type WikiRef } from '../wikilinks.ts';
import { analyzeNote, type NoteFacts } from '../note/analyze.ts';
import { publicMarkdown, publicTex } from '../note/comments.ts';
import { prepareNoteHtml, type PreparedHtml } from '../note/markdown.ts';
import { countWords, excerptOf } from '../note/excerpt.ts';
import { isTrue, parseFrontmatter, type Frontmatter } from '../note/frontmatter.ts';
import { frontmatterUpdated, postDate, type PostDate } from '../note/dates.ts';
import { aliasesOf, cssClassesOf, folderSlugsOf, mergeTags, tagsOf, textValue } from '../note/fields.ts';
import { linksAsWords, titleOf } from '../note/title.ts';
import { propertyLinks } from '../note/property-links.ts';
import { bannerField, descriptionValue, iconValue, MAX_BANNER_LENGTH } from '../note/shown-text.ts';
import { noteLanguage } from '../note/language.ts';
import { hashText } from '../note/text-hash.ts';
import type { HeadingInfo } from '../note/obsidian/headings.ts';
import type { VaultPath } from '../vault-path.ts';
import { composed } from '../vault-names.ts';
import { noteAddress, permalinkAddress, type Address } from './addresses.ts';

export interface NoteRecord {
  path: VaultPath;
  /** Where the note is published: its `permalink:`, else the address of its path. */
  address: Address;
  /** The address of its path (CONTRACT §6); answers 301 to `address` when they differ. */
  defaultAddress: Address;
  /** Folder part of the path ('' at the vault root). */
  folder: string;
  /** File name without extension. */
  name: string;
  /** sha1 of the whole file text: any change of the note changes it. */
  hash: string;
  /** The file as it was read (fileStamp), or null when the text came from elsewhere. */
  stamp: string | null;
  data: Frontmatter;
  /** Raw YAML of the frontmatter block. */
  raw: string;
  /** Why the frontmatter block was ignored, when it was malformed (a build warning). */
  frontmatterProblem: string | null;
  /** The note's public Markdown: the body with its private `%%comments%%` removed. */
  body: string;
  title: string;
  date: PostDate;
  /**
   * When its text last changed, where known (its frontmatter's `updated`, `lastmod`…, else git's
   * last commit of the file in a repository, else the file's modification time): the article's
   * "Updated" line and the sitemap's lastmod.
   */
  changedMs: number | null;
  publish: boolean;
  page: boolean;
  /** Frontmatter tags, then the text's inline `#tags` (both are tags alike). */
  tags: string[];
  /** Other names links may use (frontmatter `aliases`). */
  aliases: string[];
  /** Classes for the article element (frontmatter `cssclasses`). */
  cssClasses: string[];
  /** Collection slugs from `folders:`/`folder:` (a regular note's memberships). */
  folderSlugs: string[];
  lang: string;
  excerpt: string;
  words: number;
  /** Note targets of wikilinks and Markdown links, as written (embedded notes are `transclusions`), then of its properties' links (property-links.ts). */
  links: string[];
  /** Embedded or linked images and files as written (`![[a.png]]`, `![](a.png)`, `[[a.pdf]]`). */
  embeds: string[];
  /** Embedded notes, sections and blocks (`![[Note#Heading]]`), as written. */
  transclusions: WikiRef[];
  /** Links into a heading or block, once each, as `target#A#B` (`#A` into the note itself). */
  anchors: string[];
  /** The ids of its blocks (`^id`, without the caret). */
  blockIds: string[];
  headings: HeadingInfo[];
  /** The id of the leading heading the title came from: the article's title carries it, so `[[Note#Title]]` lands. */
  titleId: string | null;
  /** The body has math (the page needs KaTeX's stylesheet) or a diagram (mermaid's script). */
  math: boolean;
  /** Formulas past the note's math budget (shared/note/render-budget.ts): its page shows them as TeX. */
  mathCut: number;
  /** Lines of the note past its parse budget (shared/note/parse-budget.ts), shown as written. */
  markupCut: number;
  /** Conflicts a git merge left in its text (shared/note/merge-conflicts.ts): both sides show. */
  conflicts: number;
  mermaid: boolean;
  /**
   * The body rendered when the note was read (a note meant to be published), holes left
   * for what the vault decides; its first page takes it (null after, or when never made).
   */
  prepared: PreparedHtml | null;
  /**
   * The note's public plain text from that same parse, until the search index takes it
   * (null after, or when never made): the index reads every note once, the record keeps none.
   */
  searchText: string | null;
  /** The twin named by frontmatter `twin` (a wikilink or a name), unresolved. */
  twinRef: string | null;
  /** Banner image: frontmatter `banner`/`cover`/`image`, else the first embedded image. */
  banner: string | null;
  description: string | null;
  icon: string | null;
  hidden: boolean;
  collection: boolean;
}

export interface RecordInputs {
  path: VaultPath;
  text: string;
  createdMs: number | null;
  fileMs: number;
  /** The file's modification time, when it was read from one. */
  changedMs?: number | null;
  /** The stamp of the file the text was read from (fileStamp). */
  stamp?: string | null;
  /** Keep the search text of a published note from its parse (false: the search base, made later, reads the note again). */
  searchText?: boolean;
}

function unwrapLink(value: string): string {
  return (wholeLink(value)?.target ?? value).trim();
}

/** The most tags one note carries onto the site (its topics, chips and cards); a build warning names a note with more. */
export const MAX_TAGS_PER_NOTE = 100;

function bannerOf(data: Frontmatter, firstImage: string | null): string | null {
  const v = textValue(bannerField(data)?.value);
  // Cards repeat a banner on every list the note is in: an address no card needs is none.
  if (v) return v.length > MAX_BANNER_LENGTH ? null : unwrapLink(v);
  return firstImage !== null && firstImage.length > MAX_BANNER_LENGTH ? null : firstImage;
}

function withPropertyLinks(links: string[], data: Frontmatter): string[] {
  const more = propertyLinks(data);
  return more.length === 0 ? links : [...links, ...more.map((l) => l.target)];
}

/** What a record takes from the text's one parse (lazily, for a note not meant to be published). */
export type FactFields = Pick<NoteRecord, 'tags' | 'excerpt' | 'words' | 'links' | 'embeds' | 'transclusions' | 'anchors' | 'blockIds' | 'headings' | 'titleId' | 'math' | 'mathCut' | 'markupCut' | 'conflicts' | 'mermaid' | 'banner'>;

function factFields(data: Frontmatter, body: string, facts: NoteFacts | null): FactFields {
  const embeds = facts?.files ?? [];
  return {
    // Bounded: each tag is a topic page showing the note's card with all its tags, so a note of thousands costs their square.
    tags: mergeTags(tagsOf(data), facts?.tags ?? []).slice(0, MAX_TAGS_PER_NOTE),
    // A .tex note is not Markdown: its excerpt and words come from its text as it is.
    excerpt: facts ? facts.excerpt : excerptOf(body),
    words: facts ? facts.words : countWords(body),
    // Obsidian counts a property's links among the note's (backlinks, graph): after the body's.
    links: withPropertyLinks(facts?.links ?? [], data),
    embeds,
    transclusions: facts?.transclusions ?? [],
    anchors: facts?.anchors ?? [],
    blockIds: facts?.blockIds ?? [],
    headings: facts?.headings ?? [],
    titleId: facts?.titleId ?? null,
    math: facts?.math ?? false,
    mathCut: facts?.mathCut ?? 0,
    markupCut: facts?.markupCut ?? 0,
    conflicts: facts?.conflicts ?? 0,
    mermaid: facts?.mermaid ?? false,
    banner: bannerOf(data, facts?.firstImage ?? null),
  };
}

/** Where a note lives and is published: from its path and its `permalink:`. */
function placeOf(path: VaultPath, data: Frontmatter): Pick<NoteRecord, 'path' | 'address' | 'defaultAddress' | 'folder' | 'name'> {
  const slash = path.lastIndexOf('/');
  const defaultAddress = noteAddress(path);
  return {
    path,
    address: permalinkAddress(data.permalink) ?? defaultAddress,
    defaultAddress,
    folder: slash < 0 ? '' : path.slice(0, slash),
    name: path.slice(slash + 1).replace(/\.(md|markdown|tex)$/i, ''),
  };
}

export function buildRecord(input: RecordInputs): NoteRecord {
  const { path } = input;
  // Composed (NFC), as names and tags are: text pasted from a PDF or a macOS file name (`Überblick` as U + ¨)
  // would give its heading an anchor without the accent and a title that matches no link typed to it.
  const text = input.text.normalize('NFC');
  const parsed = parseFrontmatter(text, path);
  const { data, raw } = parsed;
  const fileName = composed(path.slice(path.lastIndexOf('/') + 1));
  const isTex = /\.tex$/i.test(path);
  const body = isTex ? publicTex(parsed.body) : publicMarkdown(drawingNoteBody(path) ?? parsed.body);
  const title = titleOf(data, body, fileName);
  const publish = isTrue(data.publish);
  const twin = textValue(data.twin);
  const record: EagerFields = {
    ...placeOf(path, data),
    hash: hashText(input.text),
    stamp: input.stamp ?? null,
    data,
    raw,
    frontmatterProblem: parsed.problem,
    body,
    title,
    date: postDate({ data, raw, createdMs: input.createdMs, fileMs: input.fileMs }),
    changedMs: frontmatterUpdated(data) ?? input.changedMs ?? null,
    publish,
    page: isTrue(data.page),
    aliases: aliasesOf(data),
    cssClasses: cssClassesOf(data),
    folderSlugs: folderSlugsOf(data),
    lang: noteLanguage(data, title, body),
    prepared: null,
    searchText: null,
    twinRef: twin ? unwrapLink(twin) : null,
    description: descriptionValue(linksAsWords(data.description)),
    icon: iconValue(data.icon),
    hidden: isTrue(data.hidden),
    collection: isTrue(data.collection),
  };
  // One parse gives the facts and the rendered body of a note meant to be published; the
  // rest of a vault (most of it, usually) is parsed only if a page ever needs it.
  let facts: FactFields | null = null;
  if (publish) {
    const known = isTex ? null : analyzeNote(body, title, title, input.searchText !== false);
    record.prepared = known ? known.prepared : prepareNoteHtml(body, title, true);
    record.searchText = known ? known.text : null;
    facts = factFields(data, body, known);
  }
  return new Record(record, facts);
}

type EagerFields = Omit<NoteRecord, keyof FactFields>;

/**
 * A record whose facts were given, or are computed on first read. A class, so every
 * record keeps one compact shape (fields declared here; the facts' getters on the prototype).
 */
class Record implements NoteRecord {
  path!: VaultPath;
  address!: Address;
  defaultAddress!: Address;
  folder!: string;
  name!: string;
  hash!: string;
  stamp!: string | null;
  data!: Frontmatter;
  raw!: string;
  frontmatterProblem!: string | null;
  body!: string;
  title!: string;
  date!: PostDate;
  changedMs!: number | null;
  publish!: boolean;
  page!: boolean;
  aliases!: string[];
  cssClasses!: string[];
  folderSlugs!: string[];
  lang!: string;
  prepared!: PreparedHtml | null;
  searchText!: string | null;
  twinRef!: string | null;
  description!: string | null;
  icon!: string | null;
  hidden!: boolean;
  collection!: boolean;
  #facts: FactFields | null;

  constructor(fields: EagerFields, facts: FactFields | null) {
    Object.assign(this, fields);
    this.#facts = facts;
  }

  /** Own fields and the facts, when known: a record as plain data (`packRecord`). */
  pack(): PackedRecord {
    return { fields: { ...this }, facts: this.#facts };
  }

  private facts(): FactFields {
    return (this.#facts ??= factFields(this.data, this.body, /\.tex$/i.test(this.path) ? null : analyzeNote(this.body, null, this.title)));
  }

  get tags() {
    return this.facts().tags;
  }
  get excerpt() {
    return this.facts().excerpt;
  }
  get words() {
    return this.facts().words;
  }
  get links() {
    return this.facts().links;
  }
  get embeds() {
    return this.facts().embeds;
  }
  get transclusions() {
    return this.facts().transclusions;
  }
  get anchors() {
    return this.facts().anchors;
  }
  get blockIds() {
    return this.facts().blockIds;
  }
  get headings() {
    return this.facts().headings;
  }
  get titleId() {
    return this.facts().titleId;
  }
  get math() {
    return this.facts().math;
  }
  get mathCut() {
    return this.facts().mathCut;
  }

  get markupCut() {
    return this.facts().markupCut;
  }
  get conflicts() {
    return this.facts().conflicts;
  }
  get mermaid() {
    return this.facts().mermaid;
  }
  get banner() {
    return this.facts().banner;
  }
}

/** A record as plain data: what crosses to another thread (the build thread of a full build, site/build/build-thread.ts). */
export interface PackedRecord {
  fields: EagerFields;
  facts: FactFields | null;
}

export function packRecord(record: NoteRecord): PackedRecord {
  return (record as Record).pack();
}

export function unpackRecord(packed: PackedRecord): NoteRecord {
  return new Record(packed.fields, packed.facts);
}

/**
 * What a record remembered between runs keeps (site/read/record-cache.ts): what its text
 * gave. Where it lives, its date and its one-use parts are made again when it is restored.
 */
export type KeptFields = Omit<EagerFields, 'path' | 'address' | 'defaultAddress' | 'folder' | 'name' | 'date' | 'changedMs' | 'prepared' | 'searchText'>;

export interface KeptRecord {
  fields: KeptFields;
  facts: FactFields | null;
}

/** The inputs a read dates a record by (`buildRecord`'s), for a record restored instead of read. */
export type Dating = Pick<RecordInputs, 'createdMs' | 'fileMs'> & { changedMs: number | null };

export function keptOf(record: NoteRecord): KeptRecord {
  const { fields, facts } = (record as Record).pack();
  const { path, address, defaultAddress, folder, name, date, changedMs, prepared, searchText, ...kept } = fields;
  return { fields: kept, facts };
}

/** A remembered record of the note at `path`, whose file is as it was: the record a read would make, dated as a read would date it. */
export function restoreRecord(path: VaultPath, kept: KeptRecord, dating: Dating): NoteRecord {
  const { data, raw } = kept.fields;
  const date = postDate({ data, raw, createdMs: dating.createdMs, fileMs: dating.fileMs });
  return new Record({ ...kept.fields, ...placeOf(path, data), date, changedMs: frontmatterUpdated(data) ?? dating.changedMs, prepared: null, searchText: null }, kept.facts);
}
