// On a phone the local graph is wider than its box (garden.css): the box is scrolled so the
// note itself, at the drawing's middle, is in view, in either direction of the page, and each
// side with more of the drawing beyond it fades out (`data-more`), so that a cut label reads
// as the edge of something that scrolls.
export function startGraphBoxes(): void {
  const boxes = document.querySelectorAll<HTMLElement>('.s-graph-scroll');
  // Measured in the next frame, once the page's scripts have changed it (main.ts).
  if (boxes.length > 0) requestAnimationFrame(() => boxes.forEach(centre));
}

function centre(box: HTMLElement): void {
  const room = box.scrollWidth - box.clientWidth;
  if (room <= 0) return;
  // A right-to-left box scrolls from 0 at its right edge towards negative values.
  const rtl = getComputedStyle(box).direction === 'rtl';
  box.scrollLeft = (rtl ? -room : room) / 2;
  const mark = () => {
    const fromLeft = box.scrollLeft + (rtl ? room : 0);
    const left = fromLeft > 1;
    const right = fromLeft < room - 1;
    box.dataset.more = left && right ? 'both' : left ? 'left' : right ? 'right' : '';
  };
  mark();
  box.addEventListener('scroll', mark, { passive: true });
}
