// One note as the public side sees it: everything derived from its text, its path
// and its creation time, computed once per change of the file.
import { createHash } from 'node:crypto';
import { parseWikiLinks } from '../wikilinks.ts';
import { stripComments, countWords, excerptOf } from '../note/excerpt.ts';
import { isTrue, parseFrontmatter, type Frontmatter } from '../note/frontmatter.ts';
import { postDate, type PostDate } from '../note/dates.ts';
import { folderSlugsOf, tagsOf, textValue, titleOf } from '../note/fields.ts';
import { noteLanguage } from '../note/language.ts';
import type { VaultPath } from '../vault-path.ts';
import { noteAddress, type Address } from './addresses.ts';

export interface NoteRecord {
  path: VaultPath;
  address: Address;
  /** Folder part of the path ('' at the vault root). */
  folder: string;
  /** File name without extension. */
  name: string;
  /** sha1 of the whole file text: any change of the note changes it. */
  hash: string;
  data: Frontmatter;
  /** Raw YAML of the frontmatter block. */
  raw: string;
  /** Why the frontmatter block was ignored, when it was malformed (a build warning). */
  frontmatterProblem: string | null;
  body: string;
  title: string;
  date: PostDate;
  publish: boolean;
  page: boolean;
  tags: string[];
  /** Collection slugs from `folders:`/`folder:` (a regular note's memberships). */
  folderSlugs: string[];
  lang: string;
  excerpt: string;
  words: number;
  /** Wikilink and Markdown-link targets as written (notes and attachments). */
  links: string[];
  /** Embedded or linked images and files as written (`![[a.png]]`, `![](a.png)`). */
  embeds: string[];
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
}

const IMAGE = /\.(png|jpe?g|gif|webp|avif|svg|bmp)$/i;
const MD_LINK = /(!?)\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;

function unwrapLink(value: string): string {
  const m = /^\s*!?\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]\s*$/.exec(value);
  return (m ? m[1]! : value).trim();
}

function linksOf(body: string): { links: string[]; embeds: string[] } {
  const links: string[] = [];
  const embeds: string[] = [];
  for (const link of parseWikiLinks(body)) {
    if (link.embed && !/\.(md|markdown)$/i.test(link.target) && /\.[a-z0-9]{2,5}$/i.test(link.target)) embeds.push(link.target);
    else links.push(link.target);
  }
  for (const m of body.matchAll(MD_LINK)) {
    const target = m[2]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('/')) continue;
    let decoded = target.replace(/#.*$/, '');
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      /* as written */
    }
    if (m[1] === '!' || !/\.(md|markdown)$/i.test(decoded)) embeds.push(decoded);
    else links.push(decoded);
  }
  return { links, embeds };
}

function bannerOf(data: Frontmatter, embeds: string[]): string | null {
  for (const key of ['banner', 'cover', 'image']) {
    const v = textValue(data[key]);
    if (v) return unwrapLink(v);
  }
  return embeds.find((e) => IMAGE.test(e)) ?? null;
}

export function hashText(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

export function buildRecord(input: RecordInputs): NoteRecord {
  const { path, text } = input;
  const parsed = parseFrontmatter(text, path);
  const { data, raw } = parsed;
  const slash = path.lastIndexOf('/');
  const fileName = path.slice(slash + 1);
  const name = fileName.replace(/\.(md|markdown|tex)$/i, '');
  const body = parsed.body;
  const visible = stripComments(body);
  const title = titleOf(data, visible, fileName);
  const { links, embeds } = linksOf(visible);
  const twin = textValue(data.twin);
  return {
    path,
    address: noteAddress(path),
    folder: slash < 0 ? '' : path.slice(0, slash),
    name,
    hash: hashText(text),
    data,
    raw,
    frontmatterProblem: parsed.problem,
    body,
    title,
    date: postDate({ data, raw, createdMs: input.createdMs, fileMs: input.fileMs }),
    publish: isTrue(data.publish),
    page: isTrue(data.page),
    tags: tagsOf(data),
    folderSlugs: folderSlugsOf(data),
    lang: noteLanguage(data, title, visible),
    excerpt: excerptOf(visible),
    words: countWords(visible),
    links,
    embeds,
    twinRef: twin ? unwrapLink(twin) : null,
    banner: bannerOf(data, embeds),
    description: textValue(data.description),
    icon: textValue(data.icon),
    hidden: isTrue(data.hidden),
    collection: isTrue(data.collection),
  };
}
