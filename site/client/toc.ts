// CONTRACT §12: the table of contents marks the section being read as the reader scrolls
// (aria-current="location"), and at desktop widths shows itself where the stylesheet
// cannot unfold a <details> (no ::details-content).
const DESKTOP = '(min-width: 75rem)';

export function startToc(): void {
  const fold = document.querySelector<HTMLDetailsElement>('.s-toc-fold');
  const links = [...(fold?.querySelectorAll<HTMLAnchorElement>('.s-toc a[href^="#"]') ?? [])];
  if (!fold || links.length === 0) return;
  if (!CSS.supports('selector(::details-content)')) {
    const wide = window.matchMedia(DESKTOP);
    const follow = () => (fold.open = wide.matches);
    follow();
    wide.addEventListener('change', follow);
  }
  const sections = links.map((a) => {
    try {
      return document.getElementById(decodeURIComponent(a.hash.slice(1)));
    } catch {
      return null;
    }
  });
  let shown = -1;
  const mark = () => {
    // The section being read: the last heading above a line a fifth of the way down the window.
    const line = window.innerHeight * 0.2;
    let at = -1;
    sections.forEach((h, i) => {
      if (h && h.getBoundingClientRect().top <= line) at = i;
    });
    // At the very end, the last section is the one read even when its heading cannot reach the line.
    if (window.scrollY > 0 && window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2) at = sections.length - 1;
    if (at === shown) return;
    links[shown]?.removeAttribute('aria-current');
    links[at]?.setAttribute('aria-current', 'location');
    shown = at;
  };
  let queued = false;
  window.addEventListener(
    'scroll',
    () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        mark();
      });
    },
    { passive: true },
  );
  window.addEventListener('resize', mark, { passive: true });
  requestAnimationFrame(mark);
}
