// spec D.4: the topic row stays on one line. It measures itself on every resize,
// keeps the topics that fit and folds the rest into 'More'; below about 840 px
// every topic goes into the menu. Home and collection chips never fold.
export const COLLAPSE_BELOW_PX = 840;

export function startTopicRow(): void {
  const nav = document.querySelector<HTMLElement>('.s-topics');
  const row = nav?.querySelector<HTMLElement>('.s-topics-row');
  const list = nav?.querySelector<HTMLElement>('.s-topic-list');
  const more = nav?.querySelector<HTMLDetailsElement>('.s-more');
  const moreList = more?.querySelector<HTMLElement>('.s-more-list');
  if (!nav || !row || !list || !more || !moreList) return;
  const items = Array.from(list.children) as HTMLElement[];
  if (items.length === 0) return;

  // Narrow is the media query's answer, not a measurement: reading the window's width after
  // moving chips made the browser lay the whole page out inside this script, a long task on a
  // phone before its first paint. Once folded, a resize within the narrow range moves nothing.
  const narrow = window.matchMedia(`(max-width: ${COLLAPSE_BELOW_PX - 0.02}px)`);
  const layout = () => {
    if (narrow.matches) {
      if (!more.hidden && list.childElementCount === 0) return;
      for (const item of items) moreList.appendChild(item);
      more.hidden = false;
      return;
    }
    for (const item of items) list.appendChild(item);
    more.hidden = true;
    if (row.scrollWidth <= row.clientWidth) return;
    // Show More first: its own width is part of what must fit.
    more.hidden = false;
    for (let i = items.length - 1; i >= 0 && row.scrollWidth > row.clientWidth; i--) moreList.prepend(items[i]!);
  };

  let frame = 0;
  const schedule = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(layout);
  };
  // Folding on a phone reads nothing; fitting a wide row is measured in the next frame (main.ts).
  if (narrow.matches) layout();
  else schedule();
  window.addEventListener('resize', schedule);
  if ('ResizeObserver' in window) new ResizeObserver(schedule).observe(nav);
  // Fonts arriving late change widths.
  void document.fonts?.ready.then(schedule);
  document.addEventListener('click', (e) => {
    if (more.open && !more.contains(e.target as Node)) more.open = false;
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && more.open) more.open = false;
  });
}
