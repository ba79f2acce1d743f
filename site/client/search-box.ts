// CONTRACT §9: `/` anywhere on a page (outside a text field) puts the cursor in the
// search box, as on most sites with one. The search page's own field wins over the
// masthead's (the search page has no masthead box). Focusing the masthead box fetches
// the index's manifest and field lengths ahead (both small), so the search page that
// follows finds them cached.
const EDITABLE = /^(INPUT|TEXTAREA|SELECT)$/;

function prefetchIndex(form: HTMLFormElement): void {
  const manifest = new URL(form.action + '.json');
  fetch(manifest)
    .then((res) => (res.ok ? (res.json() as Promise<{ lengths?: unknown }>) : null))
    .then((m) => (typeof m?.lengths === 'string' ? fetch(new URL(m.lengths, manifest)) : null))
    .catch(() => null);
}

export function startSearchBox(): void {
  document.addEventListener('keydown', (e) => {
    if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    const target = e.target as HTMLElement | null;
    if (target && (target.isContentEditable || EDITABLE.test(target.tagName))) return;
    const input = document.querySelector<HTMLInputElement>('.s-search-page-form .s-search-input') ?? document.querySelector<HTMLInputElement>('.s-masthead-search .s-search-input');
    if (!input) return;
    e.preventDefault();
    input.focus();
    input.select();
  });
  const masthead = document.querySelector<HTMLFormElement>('form.s-masthead-search');
  masthead?.addEventListener('focusin', () => prefetchIndex(masthead), { once: true });
}
