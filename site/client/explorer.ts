// The garden's explorer (CONTRACT §12): shown at desktop widths where the stylesheet cannot
// unfold a <details> by itself (no ::details-content), and the current note scrolled into view.
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
  const current = fold.querySelector<HTMLElement>('[aria-current="page"]');
  const sidebar = fold.closest<HTMLElement>('.s-sidebar');
  if (current && sidebar && wide.matches && sidebar.scrollHeight > sidebar.clientHeight) {
    sidebar.scrollTop = current.offsetTop - sidebar.clientHeight / 3;
  }
}
