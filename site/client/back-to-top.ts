// spec D.6: after about one screen of scrolling a ✦ button appears at the line-end
// corner; it scrolls to the top with a gold shimmer (an instant jump under
// prefers-reduced-motion) and lifts itself clear of the footer and comment box.
const MARGIN = 20;

export function startBackToTop(): void {
  const button = document.querySelector<HTMLButtonElement>('.s-top');
  if (!button) return;
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)');
  button.hidden = false;

  const place = () => {
    const visible = window.scrollY > window.innerHeight * 0.9;
    button.classList.toggle('s-visible', visible);
    button.tabIndex = visible ? 0 : -1;
    button.setAttribute('aria-hidden', String(!visible));
    let lift = 0;
    for (const el of document.querySelectorAll<HTMLElement>('.s-footer, .s-comments:not([hidden])')) {
      const top = el.getBoundingClientRect().top;
      lift = Math.max(lift, window.innerHeight - top);
    }
    button.style.bottom = `${MARGIN + Math.max(0, lift)}px`;
  };

  let frame = 0;
  const schedule = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(place);
  };
  window.addEventListener('scroll', schedule, { passive: true });
  window.addEventListener('resize', schedule);
  schedule();

  button.addEventListener('click', () => {
    if (reduced.matches) {
      window.scrollTo({ top: 0, behavior: 'instant' as ScrollBehavior });
      return;
    }
    button.classList.remove('s-shimmer');
    void button.offsetWidth; // restart the animation
    button.classList.add('s-shimmer');
    window.scrollTo({ top: 0, behavior: 'smooth' });
  });
  button.addEventListener('animationend', () => button.classList.remove('s-shimmer'));
}
