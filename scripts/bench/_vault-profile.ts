// The figures of the real-vault profile (bytes, vocabulary, links, URLs, dates, HTML…)
// measured on any vault folder, so a generated vault can be checked against real ones.
import { promises as fs } from 'node:fs';
import path from 'node:path';

export interface VaultProfile {
  notes: number;
  otherFiles: number;
  bytes: { median: number; p90: number; p99: number; max: number };
  distinctWords: number;
  wikilinks: { median: number; p99: number; max: number };
  urls: { median: number; p99: number; max: number };
  headings: { median: number; max: number };
  /** Shares of notes, 0..1. */
  share: { dated: number; aliases: number; html: number; comments: number; blockIds: number; headingLinks: number; nonAsciiNames: number; embeds: number };
}

const at = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: at(s, 0.5), p90: at(s, 0.9), p99: at(s, 0.99), max: s[s.length - 1] ?? 0 };
};
const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

export async function profileVault(dir: string): Promise<VaultProfile> {
  const files: string[] = [];
  let otherFiles = 0;
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    if (entry.name.endsWith('.md')) files.push(path.join(entry.parentPath, entry.name));
    else otherFiles++;
  }
  const bytes: number[] = [];
  const links: number[] = [];
  const urls: number[] = [];
  const headings: number[] = [];
  const words = new Set<string>();
  const has = { dated: 0, aliases: 0, html: 0, comments: 0, blockIds: 0, headingLinks: 0, nonAsciiNames: 0, embeds: 0 };
  for (const file of files) {
    const text = await fs.readFile(file, 'utf8');
    bytes.push(Buffer.byteLength(text));
    const fm = /^---\n([\s\S]*?)\n---\n/.exec(text);
    const front = fm?.[1] ?? '';
    const body = fm ? text.slice(fm[0].length) : text;
    for (const w of body.toLowerCase().match(/\p{L}+/gu) ?? []) words.add(w);
    links.push(count(body, /(?<!!)\[\[[^\]]+\]\]/g));
    urls.push(count(body, /https?:\/\/[^\s)\]>"]+/g));
    headings.push(count(body, /^#{1,6} /gm));
    if (/^(date|created|published):/m.test(front)) has.dated++;
    if (/^aliases:/m.test(front)) has.aliases++;
    if (/<[a-z!][^>]*>/i.test(body)) has.html++;
    if (/%%[\s\S]*?%%/.test(body)) has.comments++;
    if (/ \^[a-z0-9-]+$/m.test(body)) has.blockIds++;
    if (/^#{1,6} .*\[\[/m.test(body)) has.headingLinks++;
    if (/![[]/.test(body)) has.embeds++;
    if (/[^\x20-\x7e]/.test(path.relative(dir, file))) has.nonAsciiNames++;
  }
  const share = Object.fromEntries(Object.entries(has).map(([k, v]) => [k, v / Math.max(1, files.length)])) as VaultProfile['share'];
  const h = stats(headings);
  return { notes: files.length, otherFiles, bytes: stats(bytes), distinctWords: words.size, wikilinks: stats(links), urls: stats(urls), headings: { median: h.median, max: h.max }, share };
}

/** One line of the profile's headline figures, for a benchmark's output. */
export function describeProfile(p: VaultProfile): string {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  return (
    `${p.notes} notes, ${p.otherFiles} attachments; bytes median ${p.bytes.median}, p99 ${p.bytes.p99}, max ${p.bytes.max}; ` +
    `${p.distinctWords} distinct words; wikilinks median ${p.wikilinks.median}, max ${p.wikilinks.max}; URLs median ${p.urls.median}, max ${p.urls.max}; ` +
    `dated ${pct(p.share.dated)}, aliases ${pct(p.share.aliases)}, HTML ${pct(p.share.html)}, %% ${pct(p.share.comments)}, block ids ${pct(p.share.blockIds)}, ` +
    `linked headings ${pct(p.share.headingLinks)}, non-ASCII names ${pct(p.share.nonAsciiNames)}`
  );
}
