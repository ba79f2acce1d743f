// The search dialog's results (CONTRACT §9; blog.js opens and closes the dialog,
// site/client/search-box.ts): the same index, ranking and result rows as the search page
// (session.ts), the first few shown as one types. Arrow keys move from the field through
// them; Enter in the field opens the first, and the form's own button leads to the search
// page with every result.
import { moveThroughResults, resultItem, SameTitles, sayCount, SearchSession } from './session.ts';

const SHOWN = 8;
const TYPING_MS = 120;

export function startSearchDialog(): void {
  const dialog = document.querySelector<HTMLDialogElement>('dialog.s-search-dialog');
  const form = dialog?.querySelector<HTMLFormElement>('form.s-search');
  const input = form?.querySelector<HTMLInputElement>('input[name="q"]');
  const status = dialog?.querySelector<HTMLElement>('.s-search-status');
  const list = dialog?.querySelector<HTMLOListElement>('.s-results');
  if (!dialog || !form || !input || !status || !list) return;
  const strings = dialog.dataset;
  let count: Intl.NumberFormat | null = null;
  const numbers = () => (count ??= new Intl.NumberFormat(strings.numberLocale));
  const session = new SearchSession(new URL(form.action + '.json'));
  let typing = 0;
  /** The query whose results the list shows: asked again (typed while this script loaded, then typed on), the list stays, and so does the reader's focus in it. */
  let shown = '';

  async function search(query: string): Promise<void> {
    const mine = session.begin();
    const q = query.trim();
    if (q !== '' && q === shown) {
      dialog!.dataset.state = 'done';
      return;
    }
    dialog!.dataset.state = 'searching';
    if (q === '') {
      list!.replaceChildren();
      status!.textContent = '';
      shown = '';
      dialog!.dataset.state = 'idle';
      return;
    }
    try {
      const { hits, rows } = await session.answer(q, SHOWN);
      // Typed on since it was asked: the search for what the field holds now is on its way.
      if (!session.isCurrent(mine) || input!.value.trim() !== q) return;
      const items = rows.map((row) => resultItem(row, 'p', 's-result-link'));
      const titles = new SameTitles();
      items.forEach((i, n) => titles.add(i.item, rows[n]!));
      list!.replaceChildren(...items.map((i) => i.item));
      sayCount(status!, strings, q, numbers, hits.length);
      shown = q;
      dialog!.dataset.state = 'done';
      items.forEach((i) => void i.fetchPassage());
      session.warmLater(() => undefined);
    } catch {
      if (!session.isCurrent(mine)) return;
      status!.textContent = strings.failed ?? '';
      dialog!.dataset.state = 'failed';
    }
  }

  input.addEventListener('input', () => {
    window.clearTimeout(typing);
    dialog.dataset.state = 'typing';
    session.prefetch(input.value);
    typing = window.setTimeout(() => void search(input.value), TYPING_MS);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.isComposing) return;
    const first = list.querySelector<HTMLAnchorElement>('.s-result-title a');
    if (!first || dialog.dataset.state !== 'done') return;
    e.preventDefault();
    first.click();
  });
  dialog.addEventListener('keydown', (e) => moveThroughResults(e, input, list));
  // What was typed while this script loaded.
  if (input.value.trim()) void search(input.value);
}
