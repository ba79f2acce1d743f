// What the search page and the search dialog share (CONTRACT §9): one visitor index per
// page (index-client.ts), queries ranked over it with a stale base read again once, the
// results' rows, each drawn as a post link with its date and marked passage, and the
// arrow keys that move from the field through them. Each place keeps its own status line.
import { directionOf } from '../../../shared/note/language.ts';
import type { Hit } from './engine.ts';
import { Ranked } from './engine.ts';
import { StaleIndex, VisitorIndex } from './index-client.ts';
import { passageFor } from './passage.ts';

const WARM_AFTER_MS = 1000;

/** One result as it is shown: the ranked hit and what its meta row says. */
export interface ResultRow {
  hit: Hit;
  url: string;
  title: string;
  dateText: string;
  dateIso: string;
  lang: string;
}

/** A query's matches and the rows of the first few. */
export interface Answer {
  hits: Ranked;
  rows: ResultRow[];
  /** How long ranking, then fetching the rows, took (for the bench). */
  rankMs: number;
  metaMs: number;
}

export class SearchSession {
  private index: Promise<VisitorIndex> | null = null;
  private warmed: Promise<VisitorIndex> | null = null;
  private runs = 0;

  /** `manifestUrl`: the index's manifest, beside the page the search form submits to (`/search` → `/search.json`). */
  constructor(private readonly manifestUrl: URL) {}

  private open(fresh = false): Promise<VisitorIndex> {
    if (!this.index || fresh) {
      const opened = VisitorIndex.open(this.manifestUrl);
      opened.catch(() => {
        if (this.index === opened) this.index = null;
      });
      this.index = opened;
    }
    return this.index;
  }

  /** Starts downloading what `typed` will need while it is typed. */
  prefetch(typed: string): void {
    if (typed.trim()) void this.open().then((i) => i.prefetch(typed), () => null);
  }

  /** A new query's turn: an answer for an older one is dropped (`isCurrent`). */
  begin(): number {
    return ++this.runs;
  }

  isCurrent(run: number): boolean {
    return run === this.runs;
  }

  /**
   * Ranks `query` and fetches the rows of its first `first` hits; a base replaced since the
   * manifest was read (a file it names is gone) is read again, once.
   */
  async answer(query: string, first: number, retried = false): Promise<Answer> {
    if (query.trim() === '') return { hits: Ranked.none, rows: [], rankMs: 0, metaMs: 0 };
    try {
      const ranking = performance.now();
      const hits = await (await this.open()).search(query);
      const fetching = performance.now();
      const rows = await this.rows(hits.slice(0, first));
      return { hits, rows, rankMs: fetching - ranking, metaMs: performance.now() - fetching };
    } catch (err) {
      if (err instanceof StaleIndex && !retried) {
        this.open(true);
        return this.answer(query, first, true);
      }
      throw err;
    }
  }

  /** What `hits` show, in their order (a hit whose row is gone is left out). */
  async rows(hits: Hit[]): Promise<ResultRow[]> {
    const index = await this.open();
    const meta = await index.meta(hits.map((h) => h.id));
    const out: ResultRow[] = [];
    for (const hit of hits) {
      const row = meta.get(hit.id);
      if (!row) continue;
      const [, title, dateText, dateIso, lang] = row;
      out.push({ hit, url: index.pageUrl(row), title, dateText, dateIso, lang });
    }
    return out;
  }

  /**
   * Once results are shown and a second has passed (a visitor reading, not typing), the
   * rest of the results' meta is fetched while the page is idle; `done` says whether it was.
   */
  warmLater(done: (fetched: boolean) => void): void {
    const current = this.index;
    if (!current || this.warmed === current) return;
    this.warmed = current;
    const idle = (run: () => void) => ('requestIdleCallback' in window ? requestIdleCallback(run) : run());
    window.setTimeout(() => idle(() => void current.then((i) => i.warmMeta()).then(done, () => null)), WARM_AFTER_MS);
  }
}

/**
 * One result as a list item: the title a link (of class `linkClass`: `s-post-link` is one
 * hover previews pick up), the date, a place for the passage.
 */
export function resultItem(row: ResultRow, heading: 'h2' | 'p', linkClass: string): { item: HTMLLIElement; link: HTMLAnchorElement; fetchPassage: () => Promise<void> } {
  const item = document.createElement('li');
  item.className = 's-result';
  item.lang = row.lang;
  item.dir = directionOf(row.lang);
  const title = document.createElement(heading);
  title.className = 's-result-title';
  const link = document.createElement('a');
  link.className = linkClass;
  link.href = row.url;
  link.textContent = row.title;
  title.append(link);
  item.append(title);
  if (row.dateText) {
    const date = document.createElement('p');
    date.className = 's-card-date';
    const time = document.createElement('time');
    time.dateTime = row.dateIso;
    time.textContent = row.dateText;
    date.append(time);
    item.append(date);
  }
  const passage = document.createElement('p');
  passage.className = 's-result-passage';
  item.append(passage);
  const fetchPassage = () =>
    passageFor(row.url, row.hit.words).then((fragment) => {
      if (fragment) passage.append(fragment);
      else passage.remove();
    });
  return { item, link, fetchPassage };
}

/**
 * Results that share a title say where each lives (its address's path), as the first lines
 * of a result list: two notes called "Same" in two folders read the same otherwise. Told of
 * each result as it is shown; a later one with an earlier title marks both.
 */
export class SameTitles {
  private readonly seen = new Map<string, { item: HTMLLIElement; url: string; placed: boolean }[]>();

  add(item: HTMLLIElement, row: ResultRow): void {
    const key = row.title.trim().toLowerCase();
    const same = this.seen.get(key) ?? [];
    this.seen.set(key, same);
    same.push({ item, url: row.url, placed: false });
    if (same.length < 2) return;
    for (const one of same) {
      if (one.placed) continue;
      one.placed = true;
      const place = document.createElement('p');
      place.className = 's-result-place';
      place.dir = 'auto';
      place.textContent = placeOf(one.url);
      one.item.querySelector('.s-result-title')!.after(place);
    }
  }
}

/** A result's address as a reader reads it: its path, decoded, without the leading slash. */
function placeOf(url: string): string {
  const { pathname } = new URL(url, location.href);
  let path = pathname.replace(/^\/+|(?<!\/)\/+$/g, '');
  try {
    path = decodeURIComponent(path);
  } catch {
    /* kept as written */
  }
  return path.replace(/\//g, ' / ') || '/';
}

/**
 * Arrow keys from the field into the results and between them (Up from the first goes
 * back to the field). Answers whether the key was used.
 */
export function moveThroughResults(e: KeyboardEvent, input: HTMLInputElement, list: HTMLElement): boolean {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return false;
  const links = [...list.querySelectorAll<HTMLAnchorElement>('.s-result-title a')];
  const at = links.indexOf(document.activeElement as HTMLAnchorElement);
  if (document.activeElement === input && e.key === 'ArrowDown' && links[0]) links[0].focus();
  else if (at >= 0 && e.key === 'ArrowDown' && links[at + 1]) links[at + 1]!.focus();
  else if (at > 0 && e.key === 'ArrowUp') links[at - 1]!.focus();
  else if (at === 0 && e.key === 'ArrowUp') input.focus();
  else return false;
  e.preventDefault();
  return true;
}

/**
 * Says how many results `query` has in `status`: the status string for none, one or many,
 * `{n}` the count in the site's digits, `{q}` the query in a <bdi> (a Latin query in an
 * Arabic sentence keeps its place).
 */
export function sayCount(status: HTMLElement, strings: DOMStringMap, query: string, count: () => Intl.NumberFormat, n: number): void {
  const template = (n === 0 ? strings.none : n === 1 ? strings.one : strings.many) ?? '';
  const [before, ...after] = template.replace('{n}', count().format(n)).split('{q}');
  const isolated = document.createElement('bdi');
  isolated.textContent = query;
  status.replaceChildren(before ?? '', ...(after.length ? [isolated, after.join('{q}')] : []));
}
