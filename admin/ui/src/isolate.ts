// A vault name or address inside a sentence keeps its own direction (a first strong isolate,
// FSI … PDI): in an Arabic sentence `_img/photo.png` reads as written, not `img/photo.png_`.
// t() isolates its name placeholders itself; a sentence put together by hand uses this.
import { writtenPlaces } from '../../../shared/note/written-places.ts';

export const isolated = (s: string | undefined): string => (s === undefined ? '' : `\u2068${s}\u2069`);

/**
 * A vault path (or a site address) inside a sentence: left to right whatever its letters (a
 * left-to-right isolate, LRI … PDI), so `ملاحظات/Note.md` reads folder first, on the left, as
 * the vault writes it, in the Arabic interface too. Sentence draws it as a VaultPath.
 */
export const isolatedPath = (s: string | undefined): string => (s === undefined ? '' : `\u2066${s}\u2069`);

/** Whether `s` is already isolated (isolated or isolatedPath). */
export const isIsolated = (s: string): boolean => s.startsWith('\u2068') || s.startsWith('\u2066');

/** A line of Markdown with each link (`[[…]]`, `[…](…)`) isolated: an English link in an Arabic line keeps its brackets and punctuation where they are written. */
export function isolatedLinks(line: string): string {
  let out = '';
  let last = 0;
  // The links as the note model reads them (a picture in a link's text is the link's).
  for (const place of writtenPlaces(line)) {
    if (place.kind === 'definition' || place.at < last) continue;
    out += line.slice(last, place.at) + isolated(line.slice(place.at, place.at + place.length));
    last = place.at + place.length;
  }
  return out + line.slice(last);
}

/** A run of a sentence: plain words, or a name t() or `isolated` put in an isolate (`path`: an isolatedPath's). */
export type SentenceRun = { text: string; name: boolean; path?: true };

/** A sentence's runs: plain words, and the names t() or `isolated` put in isolates (without their marks). */
export function sentenceRuns(text: string): SentenceRun[] {
  const runs: SentenceRun[] = [];
  let depth = 0;
  let start = 0;
  let path = false;
  const named = (s: string): SentenceRun => (path ? { text: s, name: true, path: true } : { text: s, name: true });
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\u2068' || c === '\u2066') {
      if (depth++ === 0) {
        if (i > start) runs.push({ text: text.slice(start, i), name: false });
        start = i + 1;
        path = c === '\u2066';
      }
    } else if (c === '\u2069' && depth > 0 && --depth === 0) {
      runs.push(named(text.slice(start, i)));
      start = i + 1;
    }
  }
  // An isolate left open (a name holding a lone mark) runs to the end, as the browser reads it.
  if (start < text.length) runs.push(depth > 0 ? named(text.slice(start)) : { text: text.slice(start), name: false });
  return runs;
}

export type SentencePart = string | { before: string; name: string; after: string; path?: true };

/**
 * The runs as drawn: each name with the marks written against it (`“`, `(`, `),`), so a line
 * never ends on an opening bracket whose name went to the next one.
 */
export function sentenceParts(text: string): SentencePart[] {
  const runs = sentenceRuns(text);
  const parts: SentencePart[] = [];
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i]!;
    if (!run.name) {
      parts.push(run.text);
      continue;
    }
    const previous = parts.at(-1);
    let before = '';
    if (typeof previous === 'string') {
      before = /(?<!\S)\S*$/.exec(previous)![0];
      parts[parts.length - 1] = previous.slice(0, previous.length - before.length);
    }
    let after = '';
    const next = runs[i + 1];
    if (next && !next.name) {
      after = /^\S*/.exec(next.text)![0];
      next.text = next.text.slice(after.length);
    }
    parts.push(run.path ? { before, name: run.text, after, path: true } : { before, name: run.text, after });
  }
  return parts.filter((p) => p !== '');
}
