// The search page (CONTRACT §9): `/search?q=…` answers in the browser. Results come ten
// at a time as post links (title, date, the matching passage marked), which the hover
// previews of blog.js pick up like any post link. The status line is a live region, so a
// screen reader hears how many results there are; arrow keys move between the field and
// the results. Typing searches as you go and keeps `?q=` in the address.
import { Ranked } from './engine.ts';
import { moveThroughResults, resultItem, SameTitles, sayCount, SearchSession, type ResultRow } from './session.ts';

const PAGE = 10;
const TYPING_MS = 150;

interface Parts {
  root: HTMLElement;
  form: HTMLFormElement;
  input: HTMLInputElement;
  status: HTMLElement;
  list: HTMLOListElement;
  more: HTMLElement;
}

function partsOf(root: HTMLElement): Parts | null {
  const form = root.querySelector<HTMLFormElement>('form.s-search');
  const input = form?.querySelector<HTMLInputElement>('input[name="q"]');
  const status = root.querySelector<HTMLElement>('.s-search-status');
  const list = root.querySelector<HTMLOListElement>('.s-results');
  const more = root.querySelector<HTMLElement>('.s-more-results');
  return form && input && status && list && more ? { root, form, input, status, list, more } : null;
}

export function startSearchPage(): void {
  const root = document.querySelector<HTMLElement>('.s-search-page');
  const parts = root && partsOf(root);
  if (!parts) return;
  const { form, input, status, list, more } = parts;
  const strings = root!.dataset;
  // The first Intl object a page makes costs some 20 ms (ICU starting): made when the page is
  // idle (while the first search's files download), or when first needed.
  let count: Intl.NumberFormat | null = null;
  const numbers = () => (count ??= new Intl.NumberFormat(strings.numberLocale));
  const session = new SearchSession(new URL(form.action + '.json'));
  let hits = Ranked.none;
  let shown = 0;
  let titles = new SameTitles();
  let typing = 0;

  const say = (text: string) => {
    status.textContent = text;
  };

  /** Shows `rows` (the next page of results); answers what fetches their passages (run once the results are announced). */
  function show(rows: ResultRow[], focusFirst: boolean): () => void {
    let first: HTMLAnchorElement | null = null;
    const passages: (() => void)[] = [];
    for (const row of rows) {
      const { item, link, fetchPassage } = resultItem(row, 'h2', 's-post-link');
      list.append(item);
      titles.add(item, row);
      first ??= link;
      passages.push(() => void fetchPassage());
    }
    if (focusFirst) first?.focus();
    more.hidden = shown >= hits.length;
    return () => passages.forEach((fetchPassage) => fetchPassage());
  }

  async function showMore(): Promise<void> {
    const page = hits.slice(shown, shown + PAGE);
    shown += page.length;
    show(await session.rows(page), true)();
  }

  async function search(query: string): Promise<void> {
    const mine = session.begin();
    const started = performance.now();
    const q = query.trim();
    root!.dataset.state = 'searching';
    if (q === '') {
      hits = Ranked.none;
      list.replaceChildren();
      more.hidden = true;
      say('');
      root!.dataset.state = 'idle';
      return;
    }
    const slow = window.setTimeout(() => session.isCurrent(mine) && say(strings.searching ?? ''), 300);
    try {
      const answer = await session.answer(q, PAGE);
      if (!session.isCurrent(mine)) return;
      hits = answer.hits;
      shown = Math.min(PAGE, hits.length);
      list.replaceChildren();
      titles = new SameTitles();
      const passages = show(answer.rows, false);
      sayCount(status, strings, q, numbers, hits.length);
      // For tests and the bench: how long this answer took, and which it was.
      root!.dataset.rankMs = String(Math.round(answer.rankMs));
      root!.dataset.ms = String(Math.round(performance.now() - started));
      root!.dataset.metaMs = String(Math.round(answer.metaMs));
      root!.dataset.run = String(mine);
      root!.dataset.state = 'done';
      passages();
      session.warmLater((did) => (root!.dataset.metaWarm = did ? 'done' : 'skipped'));
    } catch {
      if (!session.isCurrent(mine)) return;
      say(strings.failed ?? '');
      root!.dataset.state = 'failed';
    } finally {
      window.clearTimeout(slow);
    }
  }

  const remember = (q: string) => {
    const url = new URL(location.href);
    if (q.trim()) url.searchParams.set('q', q);
    else url.searchParams.delete('q');
    history.replaceState(null, '', url);
  };

  input.addEventListener('input', () => {
    window.clearTimeout(typing);
    // The words' shards start downloading now, not when typing pauses.
    session.prefetch(input.value);
    typing = window.setTimeout(() => {
      remember(input.value);
      void search(input.value);
    }, TYPING_MS);
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    window.clearTimeout(typing);
    remember(input.value);
    void search(input.value);
  });
  more.querySelector('button')?.addEventListener('click', () => void showMore());
  root!.addEventListener('keydown', (e) => moveThroughResults(e, input, list));

  const initial = new URLSearchParams(location.search).get('q') ?? '';
  input.value = initial;
  if (initial.trim()) void search(initial);
  else root!.dataset.state = 'idle';
  if ('requestIdleCallback' in window) requestIdleCallback(numbers);
}
