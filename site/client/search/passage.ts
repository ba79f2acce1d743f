// The passage a search result shows: the first block of the article (fetched as a
// visitor fetches it, the page hover previews read too) holding one of the words
// that matched, cut around it, with every matching word marked. Words are compared
// as the index holds them (folded), so `Café` marks `cafe` and `أحمد` marks `احمد`.
// Everything is built as text nodes: nothing of a page or a query is read as markup.
import { processTerm, WORD_RUN } from '../../../shared/search/index-format.ts';
import { hasUnspaced } from '../../../shared/search/unspaced.ts';
import { foldText } from '../../../shared/text-fold.ts';

const BLOCKS = 'p, li, dt, dd, td, th, h2, h3, h4, h5, h6, figcaption, pre';
const BEFORE = 60;
const LENGTH = 240;

const pages = new Map<string, Promise<Element | null>>();

/** The article body of a page, fetched once (without cookies: what any visitor sees). */
function articleBody(url: string): Promise<Element | null> {
  let pending = pages.get(url);
  if (!pending) {
    pending = fetch(url, { credentials: 'omit', headers: { accept: 'text/html' } })
      .then(async (res) => (res.ok ? new DOMParser().parseFromString(await res.text(), 'text/html').querySelector('.s-article .s-article-body') : null))
      .catch(() => null);
    pages.set(url, pending);
  }
  return pending;
}

/** Where the words of `text` that fold to one of `words` are. */
export function matchSpans(text: string, words: Set<string>): [number, number][] {
  const spans: [number, number][] = [];
  for (const m of text.matchAll(WORD_RUN)) {
    if (hasUnspaced(m[0])) {
      unspacedSpans(m[0], m.index!, words, spans);
      continue;
    }
    const forms = processTerm(m[0]);
    if (forms && (Array.isArray(forms) ? forms.some((f) => words.has(f)) : words.has(forms))) spans.push([m.index!, m.index! + m[0].length]);
  }
  return spans;
}

/**
 * In a run of Chinese or Japanese the index holds characters and pairs (unspaced.ts): each
 * place the run, folded a character at a time, holds a matched one is marked.
 */
function unspacedSpans(run: string, at: number, words: Set<string>, spans: [number, number][]): void {
  let folded = '';
  const starts: number[] = [];
  let offset = 0;
  for (const ch of run) {
    const f = foldText(ch);
    for (let k = 0; k < f.length; k++) starts.push(offset);
    folded += f;
    offset += ch.length;
  }
  starts.push(offset);
  const marked: [number, number][] = [];
  for (const word of words) {
    for (let i = folded.indexOf(word); i >= 0 && word; i = folded.indexOf(word, i + 1)) marked.push([starts[i]!, starts[i + word.length] ?? offset]);
  }
  marked.sort((a, b) => a[0] - b[0]);
  let end = -1;
  for (const [from, to] of marked) {
    if (from < end) {
      // Overlapping pairs (`知识`, `识库`) make one mark.
      if (to > end) spans[spans.length - 1]![1] = at + (end = to);
      continue;
    }
    spans.push([at + from, at + to]);
    end = to;
  }
}

/** `text` cut to about LENGTH characters around its first match, matches marked. */
export function passageOf(text: string, spans: [number, number][]): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const first = spans[0]?.[0] ?? 0;
  let from = Math.max(0, first - BEFORE);
  if (from > 0) from = text.indexOf(' ', from) + 1 || from;
  if (from > first) from = first;
  let to = Math.min(text.length, from + LENGTH);
  if (to < text.length) {
    const space = text.lastIndexOf(' ', to);
    if (space > first) to = space;
  }
  // The first match is always whole in the passage.
  to = Math.max(to, spans[0]?.[1] ?? 0);
  if (from > 0) fragment.append('… ');
  let at = from;
  for (const [start, end] of spans) {
    if (start < from || end > to) continue;
    fragment.append(text.slice(at, start));
    const mark = document.createElement('mark');
    mark.textContent = text.slice(start, end);
    fragment.append(mark);
    at = end;
  }
  fragment.append(text.slice(at, to));
  if (to < text.length) fragment.append(' …');
  return fragment;
}

/** The passage of the page at `url` for the matched `words`; its opening when only the title or tags matched. */
export async function passageFor(url: string, words: string[]): Promise<DocumentFragment | null> {
  const body = await articleBody(url);
  if (!body) return null;
  const wanted = new Set(words);
  let opening: string | null = null;
  for (const block of body.querySelectorAll(BLOCKS)) {
    // A list item's own paragraphs are read as themselves.
    if (block.querySelector(BLOCKS)) continue;
    const text = (block.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (!text) continue;
    opening ??= text;
    const spans = matchSpans(text, wanted);
    if (spans.length > 0) return passageOf(text, spans);
  }
  return opening === null ? null : passageOf(opening, []);
}
