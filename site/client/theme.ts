// The reader's choice of light or dark. The site follows the system's scheme until the
// reader picks the other one with the masthead's button; the choice is kept in this
// browser (localStorage) and applied before a page is drawn (theme-early.ts). Picking
// the system's own scheme again forgets the choice, so the site follows the system again.
export type Theme = 'light' | 'dark';

const THEME_KEY = 's-theme';
/** Told on the root element when the reader changes the scheme (diagrams draw again). */
const THEME_EVENT = 's-theme';

/** The choice kept in this browser, if any (storage may be refused: private windows, policies). */
export function storedTheme(): Theme | null {
  try {
    const theme = localStorage.getItem(THEME_KEY);
    return theme === 'light' || theme === 'dark' ? theme : null;
  } catch {
    return null;
  }
}

/** Marks the page with the reader's choice (the stylesheet's `:root[data-theme]`), or none. */
export function applyTheme(theme: Theme | null): void {
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}

// One list, kept: its change listeners live as long as it does.
let systemScheme: MediaQueryList | null = null;
const systemDark = () => (systemScheme ??= window.matchMedia('(prefers-color-scheme: dark)'));

/** The scheme the page is shown in now. */
export function shownTheme(): Theme {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === 'light' || chosen === 'dark') return chosen;
  return systemDark().matches ? 'dark' : 'light';
}

/**
 * Obsidian Publish's scheme classes, `theme-light` or `theme-dark`, on the root (before the
 * page is drawn) and on <body> (once it exists): the dark rules of a vault's publish.css
 * are written for them.
 */
export function markScheme(): void {
  const shown = shownTheme();
  const other = shown === 'dark' ? 'theme-light' : 'theme-dark';
  for (const el of [document.documentElement, document.body]) {
    if (!el) continue;
    el.classList.remove(other);
    el.classList.add(`theme-${shown}`);
  }
}

/** Calls `listener` whenever the shown scheme may have changed: the system's, or the reader's choice. */
export function onThemeChange(listener: () => void): void {
  systemDark().addEventListener('change', listener);
  document.documentElement.addEventListener(THEME_EVENT, listener);
}

export function startThemeToggle(): void {
  markScheme();
  onThemeChange(markScheme);
  const button = document.querySelector<HTMLButtonElement>('.s-theme');
  if (!button) return;
  const show = () => button.setAttribute('aria-pressed', String(shownTheme() === 'dark'));
  const choose = (theme: Theme | null) => {
    applyTheme(theme);
    document.documentElement.dispatchEvent(new Event(THEME_EVENT));
  };
  button.addEventListener('click', () => {
    const next: Theme = shownTheme() === 'dark' ? 'light' : 'dark';
    const system: Theme = systemDark().matches ? 'dark' : 'light';
    try {
      if (next === system) localStorage.removeItem(THEME_KEY);
      else localStorage.setItem(THEME_KEY, next);
    } catch {
      // Not kept (storage refused): this page still changes.
    }
    choose(next === system ? null : next);
  });
  // A choice made in another tab of the site.
  window.addEventListener('storage', (event) => {
    if (event.key === THEME_KEY || event.key === null) choose(storedTheme());
  });
  onThemeChange(show);
  show();
  button.hidden = false;
}
