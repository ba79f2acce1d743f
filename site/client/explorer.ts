// The garden's explorer (CONTRACT §12): shown at desktop widths where the stylesheet cannot
// unfold a <details> by itself (no ::details-content), and the current note scrolled into view.
// The folders a reader opens or closes stay so on the next page (kept in this browser, as
// Quartz keeps them); the folders holding the current note are always open.
// A big vault's page carries only its cut of the tree (site/plan/explorer-view.ts): the
// first "more" link or closed folder opened fetches the full explorer page once and puts its
// tree in place, this page still marked and its open folders open.
const DESKTOP = '(min-width: 60rem)';

export function startExplorer(): void {
  const fold = document.querySelector<HTMLDetailsElement>('.s-explorer-fold');
  if (!fold) return;
  const wide = window.matchMedia(DESKTOP);
  if (!CSS.supports('selector(::details-content)')) {
    const follow = () => (fold.open = wide.matches);
    follow();
    wide.addEventListener('change', follow);
  }
  rememberFolders(fold);
  const current = fold.querySelector<HTMLElement>('[aria-current="page"]');
  const sidebar = fold.closest<HTMLElement>('.s-sidebar');
  if (current && sidebar && wide.matches) {
    requestAnimationFrame(() => {
      if (sidebar.scrollHeight > sidebar.clientHeight) sidebar.scrollTop = current.offsetTop - sidebar.clientHeight / 3;
    });
  }
  fillInWhenAsked(fold);
}

const FOLDERS_KEY = 's-explorer-folders';

/** The folders the reader opened (true) or closed (false), by key. */
function savedFolders(): Record<string, boolean> {
  try {
    const saved = JSON.parse(localStorage.getItem(FOLDERS_KEY) ?? '{}') as unknown;
    return saved && typeof saved === 'object' && !Array.isArray(saved) ? (saved as Record<string, boolean>) : {};
  } catch {
    return {};
  }
}

function rememberFolders(fold: HTMLElement): void {
  const saved = savedFolders();
  // A cut tree's closed folder the reader left open is opened too: its toggle fetches the
  // whole explorer once (fillInWhenAsked), with every folder the reader keeps open.
  for (const details of fold.querySelectorAll<HTMLDetailsElement>('details[data-folder]')) {
    const open = saved[details.dataset.folder!];
    if (open !== undefined) details.open = open;
  }
  for (let at = fold.querySelector('[aria-current="page"]')?.parentElement?.closest('details[data-folder]'); at; at = at.parentElement?.closest('details[data-folder]')) {
    (at as HTMLDetailsElement).open = true;
  }
  // The reader's own clicks (a key on the summary is a click too), not the toggles made here or by a filled-in tree.
  fold.addEventListener('click', (event) => {
    const summary = (event.target as Element).closest('summary');
    const details = summary?.parentElement;
    if (!summary || !(details instanceof HTMLDetailsElement) || details.dataset.folder === undefined || (event.target as Element).closest('a')) return;
    const now = savedFolders();
    now[details.dataset.folder] = !details.open;
    try {
      localStorage.setItem(FOLDERS_KEY, JSON.stringify(now));
    } catch {
      // Not kept (storage refused): this page still opens it.
    }
  });
}

function fillInWhenAsked(fold: HTMLElement): void {
  const tree = fold.querySelector<HTMLUListElement>('.s-explorer-tree');
  const first = fold.querySelector<HTMLAnchorElement>('.s-explorer-more a');
  if (!tree || !first) return;
  let whole: Promise<HTMLUListElement | null> | null = null;
  const fetchWhole = () =>
    (whole ??= fetch(first.pathname, { credentials: 'same-origin' })
      .then((res) => (res.ok ? res.text() : ''))
      .then((html) => new DOMParser().parseFromString(html, 'text/html').querySelector<HTMLUListElement>('.s-explorer-all .s-explorer-tree'))
      .catch(() => null));

  /** Puts the whole tree in place of the cut one; `reveal`: the folder whose entries were asked for. */
  const fill = async (reveal: string | null): Promise<HTMLUListElement | null> => {
    const fetched = await fetchWhole();
    if (!fetched || !tree.isConnected) return null;
    const next = document.importNode(fetched, true);
    const open = new Set([...tree.querySelectorAll<HTMLDetailsElement>('details[open]')].map((d) => d.dataset.folder));
    if (reveal) open.add(reveal);
    for (const d of next.querySelectorAll<HTMLDetailsElement>('details[data-folder]')) d.open = open.has(d.dataset.folder);
    const here = tree.querySelector('[aria-current="page"]')?.getAttribute('href');
    if (here) {
      for (const a of next.querySelectorAll('a')) if (a.getAttribute('href') === here) a.setAttribute('aria-current', 'page');
    }
    tree.replaceWith(next);
    return next;
  };

  fold.addEventListener('click', (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>('.s-explorer-more a');
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    // The entry before the link (after it, for a leading one): focus goes to the first one shown in its place.
    const item = link.parentElement!;
    const before = item.previousElementSibling;
    const beside = entryOf(before ?? item.nextElementSibling);
    void fill(link.dataset.folder || null).then((next) => {
      if (!next) return void (location.href = link.href);
      const found = beside ? findEntry(next, beside) : null;
      const target = before ? found?.nextElementSibling : found?.parentElement?.firstElementChild;
      (target?.querySelector<HTMLElement>(':scope > a, :scope > details > summary') ?? next.querySelector<HTMLElement>('a'))?.focus();
    });
  });

  // A closed folder of a cut tree holds only its "more" link: opened, it gets its entries.
  fold.addEventListener(
    'toggle',
    (event) => {
      const details = event.target as HTMLDetailsElement;
      if (!details.open || !details.hasAttribute('data-partial')) return;
      const key = details.dataset.folder ?? null;
      const focused = document.activeElement === details.querySelector('summary');
      void fill(key).then((next) => {
        if (next && focused) next.querySelector<HTMLElement>(`details[data-folder="${CSS.escape(key ?? '')}"] > summary`)?.focus();
      });
    },
    true,
  );
}

/** An entry of the tree by what names it: a folder's key, a note's address. */
type EntryName = { folder: string } | { href: string };

function entryOf(li: Element | null): EntryName | null {
  const folder = li?.querySelector<HTMLElement>(':scope > details')?.dataset.folder;
  if (folder !== undefined) return { folder };
  const href = li?.querySelector(':scope > a')?.getAttribute('href');
  return href ? { href } : null;
}

function findEntry(tree: HTMLElement, name: EntryName): Element | null {
  if ('folder' in name) return tree.querySelector(`details[data-folder="${CSS.escape(name.folder)}"]`)?.parentElement ?? null;
  return [...tree.querySelectorAll('li > a')].find((a) => a.getAttribute('href') === name.href)?.parentElement ?? null;
}
