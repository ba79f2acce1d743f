// On a phone the local graph is wider than its box (garden.css): the box is scrolled so the
// note itself, at the drawing's middle, is in view, in either direction of the page.
export function startGraphBoxes(): void {
  for (const box of document.querySelectorAll<HTMLElement>('.s-graph-scroll')) {
    const room = box.scrollWidth - box.clientWidth;
    if (room <= 0) continue;
    // A right-to-left box scrolls from 0 at its right edge towards negative values.
    box.scrollLeft = (getComputedStyle(box).direction === 'rtl' ? -room : room) / 2;
  }
}
