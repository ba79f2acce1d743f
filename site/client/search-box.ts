// CONTRACT §9: `/` anywhere on a page (outside a text field) puts the cursor in the
// search box, as on most sites with one. The search page's own field wins over the
// masthead's (the search page has no masthead box).
const EDITABLE = /^(INPUT|TEXTAREA|SELECT)$/;

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
}
