// The search page (CONTRACT §9): `/search?q=…` answers in the browser. Results come ten
// at a time as post links (title, date, the matching passage marked), which the hover
// previews of blog.js pick up like any post link. The status line is a live region, so a
// screen reader hears how many results there are; arrow keys move between the field and
// the results. Typing searches as you go and keeps `?q=` in the address.
import { directionOf } from '../../../shared/note/language.ts';
import { Ranked } from './engine.ts';
import { StaleIndex, VisitorIndex } from './index-client.ts';
import { passageFor } from './passage.ts';

const PAGE = 10;
const TYPING_MS = 150;
const WARM_AFTER_MS = 1000;

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
  // The manifest lives beside the page the form submits to (`/search` → `/search.json`).
  const manifestUrl = new URL(form.action + '.json');
  let index: Promise<VisitorIndex> | null = null;
  let run = 0;
  let hits = Ranked.none;
  let shown = 0;
  let typing = 0;
  /** How long the last page of results waited for what they show (for the bench). */
  let metaMs = 0;

  const open = (fresh = false) => {
    if (!index || fresh) {
      index = VisitorIndex.open(manifestUrl);
      index.catch(() => (index = null));
    }
    return index;
  };
  // Once the page has answered, and a second has passed (a visitor reading, not typing),
  // the rest of the results' meta is fetched while the page is idle (index-client.ts).
  let warmed: Promise<VisitorIndex> | null = null;
  const warmLater = () => {
    const current = index;
    if (!current || warmed === current) return;
    warmed = current;
    const idle = (run: () => void) => ('requestIdleCallback' in window ? requestIdleCallback(run) : run());
    window.setTimeout(
      () =>
        idle(() =>
          void current
            .then((i) => i.warmMeta())
            .then((did) => (root!.dataset.metaWarm = did ? 'done' : 'skipped'), () => null),
        ),
      WARM_AFTER_MS,
    );
  };
  const say = (text: string) => {
    status.textContent = text;
  };
  const fill = (template: string | undefined, query: string, n = 0) => (template ?? '').replace('{n}', numbers().format(n)).replace('{q}', query);

  /** Shows the next page of results; answers what fetches their passages (run once the results are announced). */
  async function showNext(focusFirst: boolean): Promise<() => void> {
    const engine = await open();
    const page = hits.slice(shown, shown + PAGE);
    shown += page.length;
    more.hidden = shown >= hits.length;
    const fetching = performance.now();
    const meta = await engine.meta(page.map((h) => h.id));
    metaMs = performance.now() - fetching;
    let first: HTMLAnchorElement | null = null;
    const passages: (() => void)[] = [];
    for (const hit of page) {
      const row = meta.get(hit.id);
      if (!row) continue;
      const [, title, dateText, dateIso, lang] = row;
      const url = engine.pageUrl(row);
      const item = document.createElement('li');
      item.className = 's-result';
      item.lang = lang;
      item.dir = directionOf(lang);
      const heading = document.createElement('h2');
      heading.className = 's-result-title';
      const link = document.createElement('a');
      link.className = 's-post-link';
      link.href = url;
      link.textContent = title;
      heading.append(link);
      item.append(heading);
      if (dateText) {
        const date = document.createElement('p');
        date.className = 's-card-date';
        const time = document.createElement('time');
        time.dateTime = dateIso;
        time.textContent = dateText;
        date.append(time);
        item.append(date);
      }
      const passage = document.createElement('p');
      passage.className = 's-result-passage';
      item.append(passage);
      list.append(item);
      first ??= link;
      passages.push(() =>
        passageFor(url, hit.words).then((fragment) => {
          if (fragment) passage.append(fragment);
          else passage.remove();
        }),
      );
    }
    if (focusFirst) first?.focus();
    return () => passages.forEach((fetchPassage) => fetchPassage());
  }

  async function search(query: string, retried = false): Promise<void> {
    const mine = ++run;
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
    const slow = window.setTimeout(() => mine === run && say(strings.searching ?? ''), 300);
    try {
      const engine = await open();
      const ranking = performance.now();
      const found = await engine.search(q);
      if (mine !== run) return;
      root!.dataset.rankMs = String(Math.round(performance.now() - ranking));
      hits = found;
      shown = 0;
      list.replaceChildren();
      const passages = await showNext(false);
      if (mine !== run) return;
      say(hits.length === 0 ? fill(strings.none, q) : fill(hits.length === 1 ? strings.one : strings.many, q, hits.length));
      // For tests and the bench: how long this answer took, and which it was.
      root!.dataset.ms = String(Math.round(performance.now() - started));
      root!.dataset.metaMs = String(Math.round(metaMs));
      root!.dataset.run = String(mine);
      root!.dataset.state = 'done';
      passages();
      warmLater();
    } catch (err) {
      if (mine !== run) return;
      // The base was replaced since the manifest was read: read it again, once.
      if (err instanceof StaleIndex && !retried) {
        open(true);
        return search(query, true);
      }
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
    const typed = input.value;
    if (typed.trim()) void open().then((i) => i.prefetch(typed), () => null);
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
  more.querySelector('button')?.addEventListener('click', () => void showNext(true).then((passages) => passages()));
  // Arrow keys: from the field into the results, and between results.
  root!.addEventListener('keydown', (e) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const links = [...list.querySelectorAll<HTMLAnchorElement>('.s-result-title a')];
    const at = links.indexOf(document.activeElement as HTMLAnchorElement);
    if (document.activeElement === input && e.key === 'ArrowDown' && links[0]) links[0].focus();
    else if (at >= 0 && e.key === 'ArrowDown' && links[at + 1]) links[at + 1]!.focus();
    else if (at > 0 && e.key === 'ArrowUp') links[at - 1]!.focus();
    else if (at === 0 && e.key === 'ArrowUp') input.focus();
    else return;
    e.preventDefault();
  });

  const initial = new URLSearchParams(location.search).get('q') ?? '';
  input.value = initial;
  if (initial.trim()) void search(initial);
  else root!.dataset.state = 'idle';
  if ('requestIdleCallback' in window) requestIdleCallback(numbers);
}
