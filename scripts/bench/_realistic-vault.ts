// A benchmark vault shaped like the real ones measured in shared notes (a 6,571-note
// community vault): heavy tails (an index note linking up to 3,000 notes, a 300 KB note),
// a Zipf vocabulary of pseudo-words, many URLs, raw HTML and %% comments in most notes,
// block ids, aliases, almost no dates (file times spread over years stand in for them),
// attachments, nested folders with folder notes and a few non-ASCII names. Everything
// follows from the seed: the same seed writes the same bytes and the same file times.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

export interface RealisticNote {
  /** Vault path, `/`-separated. */
  path: string;
  /** The name a wikilink uses (file name without `.md`). */
  name: string;
  published: boolean;
  /** File modification time, ms since the epoch (the note's date when it has none). */
  mtimeMs: number;
  /** The first paragraph: plain prose, one line (the edit benchmark changes it). */
  firstParagraph: string;
}

export interface RealisticVault {
  notes: RealisticNote[];
  /** The folder note that lists up to 3,000 other notes. */
  index: RealisticNote;
  /** The 300 KB note. */
  big: RealisticNote;
  /** The published note with the latest file time (first on the home page and in the feed). */
  newest: RealisticNote;
  attachments: string[];
  /** Distinct words the generator can draw from. */
  vocabularySize: number;
}

export const VOCABULARY_SIZE = 24_000;
const INDEX_LINKS = 3_000;
const BIG_NOTE_BYTES = 300_000;
const YEARS_MS = 5 * 365 * 86_400_000;
const EPOCH = Date.UTC(2021, 0, 1);

/** mulberry32: a small seeded generator, fast and good enough for text. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ONSETS = ['', 'b', 'c', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'z', 'br', 'ch', 'cl', 'dr', 'fl', 'gr', 'pl', 'pr', 'sh', 'st', 'th', 'tr'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou', 'io', 'y'];
const CODAS = ['', '', '', 'n', 'r', 's', 't', 'l', 'm', 'nd', 'rk', 'st', 'x'];

/** `size` distinct pseudo-words, shortest-ish first (frequent words are short in real text). */
function vocabulary(random: () => number, size: number): string[] {
  const seen = new Set<string>();
  const words: string[] = [];
  while (words.length < size) {
    const syllables = 1 + Math.floor(Math.min(4, (words.length / size) * 3 + random() * 1.6));
    let w = '';
    for (let s = 0; s < syllables; s++) w += ONSETS[Math.floor(random() * ONSETS.length)]! + VOWELS[Math.floor(random() * VOWELS.length)]! + CODAS[Math.floor(random() * CODAS.length)]!;
    if (w.length > 1 && !seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  return words;
}

/** Draws ranks 0..n-1 with probability ∝ 1/(rank+1)^s (Zipf), by binary search over the cumulative weights. */
function zipf(n: number, s: number, random: () => number): () => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) cumulative[k] = total += 1 / Math.pow(k + 1, s);
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid RGB PNG of `width` × `height`: a gradient coloured by `hue`. */
export function pngImage(width: number, height: number, hue: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) rows.set([(x * 255) / width, (y * 255) / height, hue & 0xff], row + 1 + x * 3);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

function svgImage(i: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80" viewBox="0 0 120 80"><rect width="120" height="80" fill="#${(i * 2654435761 >>> 8).toString(16).padStart(6, '0').slice(0, 6)}"/><circle cx="60" cy="40" r="${10 + (i % 25)}" fill="#fff"/></svg>\n`;
}

const HOSTS = ['github.com', 'obsidian.md', 'forum.obsidian.md', 'en.wikipedia.org', 'www.youtube.com', 'docs.example.org', 'blog.example.net', 'medium.com', 'twitter.com', 'reddit.com', 'publish.obsidian.md', 'bücher.example', 'xn--mnchen-3ya.example'];
const HTML_SNIPPETS = [
  (w: string) => `<span style="color: #c33">${w}</span>`,
  (w: string) => `<kbd>Ctrl</kbd> + <kbd>${w}</kbd>`,
  (w: string) => `<mark>${w}</mark>`,
  (w: string) => `${w}<br>`,
  (w: string) => `<!-- ${w} -->`,
  (w: string) => `<sup>${w}</sup>`,
  (w: string) => `<a href="https://example.org/${w}" target="_blank">${w}</a>`,
];
const NON_ASCII = ['Café', 'Über', 'Ñandú', '🚀', '📝 Notes', 'Zürich', 'Ελληνικά', 'Crème'];

/** Writes the vault into `dir` (which may exist) and returns what the benchmarks and tests need to know of it. */
export async function generateRealisticVault(dir: string, count: number, seed = 1): Promise<RealisticVault> {
  const random = rng(seed);
  const words = vocabulary(random, VOCABULARY_SIZE);
  const wordRank = zipf(words.length, 1.0, random);
  const word = () => words[wordRank()]!;
  const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const chance = (p: number) => random() < p;

  // Nested folders: top folders, some with subfolders and sub-subfolders; each has a folder note.
  const folders: string[] = [];
  const topFolders = Math.max(4, Math.round(count / 250));
  for (let f = 0; f < topFolders; f++) {
    const top = `${cap(words[f * 7 + 3]!)} ${f}`;
    folders.push(top);
    for (let s = 0; s < int(0, 3); s++) {
      const sub = `${top}/${cap(words[f * 11 + s + 50]!)}`;
      folders.push(sub);
      if (chance(0.3)) folders.push(`${sub}/${cap(words[f * 13 + s + 90]!)}`);
    }
  }
  const folderPick = zipf(folders.length, 0.6, random);

  // Note names: two or three words, unique case-insensitively; 1% with non-ASCII.
  const taken = new Set(folders.map((f) => path.basename(f).toLowerCase()));
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    let name = '';
    do name = (i % 100 === 37 ? `${NON_ASCII[int(0, NON_ASCII.length - 1)]} ` : '') + [cap(word()), word(), ...(chance(0.5) ? [word()] : [])].join(' ');
    while (taken.has(name.toLowerCase()) || name.length > 80);
    taken.add(name.toLowerCase());
    names.push(name);
  }
  const folderNoteNames = new Set<number>();
  const notes: RealisticNote[] = [];
  const folderOf: string[] = [];
  // The first notes are the folder notes (Folder/Folder.md); then the index, the big note, the rest.
  for (let i = 0; i < count; i++) {
    const folder = i < folders.length ? folders[i]! : i === folders.length ? folders[0]! : folders[folderPick()]!;
    folderOf.push(folder);
    if (i < folders.length) {
      names[i] = path.basename(folder);
      folderNoteNames.add(i);
    }
  }
  // Right after the folder notes, in the first folder: the index note and the 300 KB note.
  const indexAt = folders.length;
  names[indexAt] = 'Index of everything';
  const bigAt = folders.length + 1;
  names[bigAt] = 'Changelog archive';
  const noteRank = zipf(count, 0.8, random);
  const linkTarget = () => names[noteRank()]!;

  const attachments: string[] = [];
  const attachmentCount = Math.max(8, Math.round(count / 100));
  for (let a = 0; a < attachmentCount; a++) attachments.push(a % 5 === 4 ? `attachments/diagram-${a}.svg` : `attachments/image-${a}.png`);

  const sentence = (n: number) => {
    const out: string[] = [];
    for (let k = 0; k < n; k++) out.push(word());
    return cap(out.join(' ')) + '.';
  };
  const url = () => `https://${HOSTS[int(0, HOSTS.length - 1)]}/${word()}/${word()}${chance(0.3) ? `?q=${word()}` : ''}`;
  const blockId = () => Math.floor(random() * 36 ** 6).toString(36).padStart(6, '0');

  /** A body of about `bytes` bytes: paragraphs, headings, lists, links, URLs, HTML, comments. */
  const body = (i: number, bytes: number, urls: number, links: number): string => {
    const parts: string[] = [];
    let size = 0;
    let urlsLeft = urls;
    let linksLeft = links;
    const push = (s: string) => {
      parts.push(s);
      size += s.length + 2;
    };
    const headingLink = i % 100 === 13;
    let headings = 0;
    let sinceHeading = 0;
    while (size < bytes) {
      const r = random();
      sinceHeading++;
      if ((r < 0.4 && sinceHeading > 1) || (headingLink && headings === 0)) {
        headings++;
        sinceHeading = 0;
        push(`## ${headingLink && headings === 1 ? `[[${linkTarget()}|${cap(word())}]] ${word()}` : cap(sentence(int(1, 4)).slice(0, -1))}`);
      } else if (r < 0.22) {
        const items = int(2, 8);
        const lines: string[] = [];
        for (let k = 0; k < items; k++) {
          let line = `- ${sentence(int(3, 12))}`;
          if (urlsLeft > 0 && chance(0.5)) (line += ` ${url()}`), urlsLeft--;
          if (linksLeft > 0 && chance(0.3)) (line += ` [[${linkTarget()}]]`), linksLeft--;
          lines.push(line);
        }
        push(lines.join('\n'));
      } else {
        let p = '';
        for (let s = int(1, 4); s > 0; s--) p += (p ? ' ' : '') + sentence(int(5, 18));
        if (urlsLeft > 0 && chance(0.6)) (p += chance(0.5) ? ` See ${url()}.` : ` [${cap(word())} ${word()}](${url()}).`), urlsLeft--;
        if (linksLeft > 0 && chance(0.5)) (p += ` Compare [[${linkTarget()}${chance(0.2) ? `|${word()}` : ''}]].`), linksLeft--;
        push(p);
      }
    }
    while (urlsLeft > 0) {
      const batch = Math.min(urlsLeft, 50);
      push(Array.from({ length: batch }, () => `- ${url()}`).join('\n'));
      urlsLeft -= batch;
    }
    if (linksLeft > 0) push(`Related: ${Array.from({ length: linksLeft }, () => `[[${linkTarget()}]]`).join(', ')}.`);
    // Raw HTML and private comments in most notes, block ids in 40%, embeds in about half.
    if (chance(0.75)) parts.splice(int(1, parts.length), 0, `${sentence(6).slice(0, -1)} ${HTML_SNIPPETS[int(0, HTML_SNIPPETS.length - 1)]!(word())} ${word()}.`);
    if (chance(0.15)) parts.push(`<details><summary>${cap(word())}</summary>\n\n${sentence(10)}\n\n</details>`);
    if (chance(0.65)) parts.splice(int(1, parts.length), 0, `%% ${sentence(int(4, 12))} %%`);
    if (chance(0.42)) {
      const plain = parts.flatMap((p, k) => (k > 0 && !p.startsWith('##') && !p.startsWith('%%') ? [k] : []));
      if (plain.length) parts[plain[int(0, plain.length - 1)]!] += ` ^${blockId()}`;
    }
    if (chance(0.55)) parts.push(chance(0.5) ? `![[${attachments[int(0, attachments.length - 1)]!.split('/').pop()}${chance(0.5) ? `|${int(100, 600)}` : ''}]]` : `![[${linkTarget()}]]`);
    if (chance(0.01)) parts.push('```js\nconst ' + word() + ' = ' + int(1, 99) + ';\nconsole.log(' + JSON.stringify(word()) + ');\n```');
    return parts.join('\n\n');
  };

  const frontmatter = (i: number, published: boolean): string => {
    const lines = [`publish: ${published}`];
    if (chance(0.98)) lines.push(`aliases: [${Array.from({ length: int(1, 2) }, () => JSON.stringify(`${cap(word())} ${word()}`)).join(', ')}]`);
    if (chance(0.6)) lines.push(`tags: [${Array.from({ length: int(1, 3) }, () => `tag-${words[int(0, 199)]}`).join(', ')}]`);
    if (i % 50 === 7) lines.push(`date: ${new Date(EPOCH - int(0, YEARS_MS / 86_400_000) * 86_400_000).toISOString().slice(0, 10)}`);
    if (chance(0.1)) lines.push(`cssclasses: [wide]`);
    if (i === indexAt || chance(0.15)) lines.push(`title: ${JSON.stringify(names[i])}`);
    return `---\n${lines.join('\n')}\n---\n\n`;
  };

  /** Bytes of text a note aims at before its extras: most 1-1.9 KB, a tenth up to 8 KB, 1% up to 32 KB (log-uniform). */
  const targetBytes = () => {
    const r = random();
    if (r < 0.9) return int(1_000, 1_900);
    if (r < 0.99) return Math.round(2_000 * Math.pow(4, random()));
    return Math.round(7_000 * Math.pow(4, random()));
  };
  /** URLs: median about 8, p99 in the forties, a few notes with hundreds. */
  const urlCount = () => (chance(0.005) ? int(150, 500) : chance(0.04) ? int(20, 60) : int(3, 13));

  // Newest first: the file times run back over five years; notes later in the list are older.
  const mtimes = Array.from({ length: count }, () => EPOCH + YEARS_MS - Math.floor(random() * YEARS_MS));
  let writes: Promise<void>[] = [];
  const write = async (rel: string, content: string | Buffer, mtimeMs: number) => {
    const file = path.join(dir, rel);
    writes.push(
      fs.writeFile(file, content).then(() => fs.utimes(file, mtimeMs / 1000, mtimeMs / 1000)),
    );
    if (writes.length >= 200) await Promise.all(writes.splice(0));
  };
  for (const folder of ['attachments', ...folders]) await fs.mkdir(path.join(dir, folder), { recursive: true });
  for (let a = 0; a < attachments.length; a++) {
    const file = attachments[a]!;
    await write(file, file.endsWith('.svg') ? svgImage(a) : pngImage(int(8, 64), int(8, 48), a * 37), EPOCH - a * 3_600_000);
  }

  for (let i = 0; i < count; i++) {
    const published = i === indexAt || i === bigAt || folderNoteNames.has(i) || chance(0.9);
    const first = `${sentence(int(8, 20))} ${sentence(int(6, 14))}`;
    let text = frontmatter(i, published) + first + '\n\n';
    if (i === indexAt) {
      const listed = Math.min(INDEX_LINKS, count - 1);
      const items: string[] = [];
      for (let k = 0, n = 0; n < listed; k++) if (k !== indexAt) items.push(`- [[${names[k]}]]${k % 3 === 0 ? ` ${sentence(int(3, 8))}` : ''}`), n++;
      text += `## Every note\n\n${items.join('\n')}\n`;
    } else if (i === bigAt) text += body(i, BIG_NOTE_BYTES - text.length, 200, 40) + '\n';
    else if (folderNoteNames.has(i)) text += body(i, int(400, 1_200), int(1, 6), 0) + '\n\n' + notesIn(folders[i]!).join('\n') + '\n';
    else text += body(i, targetBytes() - text.length, urlCount(), chance(0.2) ? 0 : int(1, 4) + (chance(0.02) ? int(10, 40) : 0)) + '\n';
    const rel = `${folderOf[i]}/${names[i]}.md`;
    notes.push({ path: rel, name: names[i]!, published, mtimeMs: mtimes[i]!, firstParagraph: first });
    await write(rel, text, mtimes[i]!);
  }
  await Promise.all(writes);
  writes = [];

  function notesIn(folder: string): string[] {
    const out: string[] = [];
    for (let k = folders.length; k < count && out.length < 30; k++) if (folderOf[k] === folder) out.push(`- [[${names[k]}]]`);
    return out;
  }

  // The index note is the second newest published note (it changes often in real vaults), so
  // an edit of it shows on the home page and in the feed beside the newest.
  const byTime = notes.filter((n) => n.published).sort((a, b) => b.mtimeMs - a.mtimeMs);
  const newest = byTime[0] === notes[indexAt] ? byTime[1]! : byTime[0]!;
  const index = notes[indexAt]!;
  index.mtimeMs = newest.mtimeMs - 60_000;
  await fs.utimes(path.join(dir, index.path), index.mtimeMs / 1000, index.mtimeMs / 1000);
  return { notes, index, big: notes[bigAt]!, newest, attachments, vocabularySize: words.length };
}
