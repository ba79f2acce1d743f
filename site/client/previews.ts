// spec D.6: resting the pointer on (or tabbing to) a post link shows a scrollable
// card with the note's opening, rendered as its article renders it. It flips
// above the link near the window's bottom and stays while the pointer moves into
// it. Not on touch devices or under reduced motion. Fetched as a visitor would
// (no cookies), so an unpublished note has nothing to preview.
const SHOW_DELAY_MS = 350;
const HIDE_DELAY_MS = 250;
const BLOCKS = 8;
const GAP = 8;

type Preview = { title: string; body: DocumentFragment } | null;

const cache = new Map<string, Promise<Preview>>();

function sameSite(link: HTMLAnchorElement): boolean {
  return link.origin === location.origin && link.pathname !== location.pathname;
}

function load(href: string): Promise<Preview> {
  let pending = cache.get(href);
  if (!pending) {
    pending = fetch(href, { credentials: 'omit', headers: { accept: 'text/html' } })
      .then(async (res) => {
        if (!res.ok) return null;
        const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
        const body = doc.querySelector('.s-article .s-article-body');
        if (!body) return null;
        // Math in the preview needs KaTeX's stylesheet, which this page may not load.
        const katex = doc.querySelector<HTMLLinkElement>('link[data-katex]');
        if (katex && !document.querySelector('link[data-katex]')) document.head.appendChild(document.importNode(katex, true));
        const fragment = document.createDocumentFragment();
        const wrapper = document.createElement('div');
        wrapper.className = 's-article-body';
        const article = doc.querySelector<HTMLElement>('.s-article');
        if (article?.dir) wrapper.dir = article.dir;
        if (article?.lang) wrapper.lang = article.lang;
        Array.from(body.children)
          .slice(0, BLOCKS)
          .forEach((child) => wrapper.appendChild(document.importNode(child, true)));
        fragment.appendChild(wrapper);
        return { title: doc.querySelector('.s-title')?.textContent ?? '', body: fragment };
      })
      .catch(() => null);
    cache.set(href, pending);
  }
  return pending;
}

export function startPreviews(): void {
  if (window.matchMedia('(hover: none)').matches || window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  let card: HTMLElement | null = null;
  let owner: HTMLAnchorElement | null = null;
  let showTimer = 0;
  let hideTimer = 0;

  const hide = () => {
    window.clearTimeout(showTimer);
    card?.remove();
    card = null;
    owner = null;
  };
  const hideSoon = () => {
    window.clearTimeout(hideTimer);
    hideTimer = window.setTimeout(hide, HIDE_DELAY_MS);
  };
  const keep = () => window.clearTimeout(hideTimer);

  const place = (el: HTMLElement, link: HTMLAnchorElement) => {
    const r = link.getBoundingClientRect();
    const height = el.offsetHeight;
    const width = el.offsetWidth;
    const below = r.bottom + GAP + height <= window.innerHeight;
    el.classList.toggle('s-above', !below);
    const top = below ? r.bottom + GAP : Math.max(GAP, r.top - GAP - height);
    const rtl = getComputedStyle(link).direction === 'rtl';
    let left = rtl ? r.right - width : r.left;
    left = Math.min(Math.max(GAP, left), window.innerWidth - width - GAP);
    el.style.top = `${top + window.scrollY}px`;
    el.style.left = `${left + window.scrollX}px`;
  };

  const show = async (link: HTMLAnchorElement) => {
    const preview = await load(link.href);
    if (!preview || owner !== link) return;
    card?.remove();
    card = document.createElement('div');
    card.className = 's-preview';
    card.setAttribute('role', 'tooltip');
    const title = document.createElement('p');
    title.className = 's-preview-title';
    title.textContent = preview.title;
    card.append(title, preview.body.cloneNode(true));
    card.addEventListener('mouseenter', keep);
    card.addEventListener('mouseleave', hideSoon);
    document.body.appendChild(card);
    place(card, link);
  };

  const begin = (link: HTMLAnchorElement) => {
    keep();
    if (owner === link) return;
    hide();
    owner = link;
    showTimer = window.setTimeout(() => void show(link), SHOW_DELAY_MS);
  };

  const target = (e: Event) => (e.target as Element | null)?.closest?.<HTMLAnchorElement>('a.s-post-link, .s-article-body a.s-wikilink') ?? null;

  document.addEventListener('pointerover', (e) => {
    const link = target(e);
    if (!link || e.pointerType === 'touch' || !sameSite(link)) return;
    begin(link);
  });
  document.addEventListener('pointerout', (e) => {
    const link = target(e);
    if (link && link === owner && !link.contains(e.relatedTarget as Node)) hideSoon();
  });
  document.addEventListener('focusin', (e) => {
    const link = target(e);
    if (link && sameSite(link)) begin(link);
    else if (card && !card.contains(e.target as Node)) hide();
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') hide();
  });
  window.addEventListener('scroll', () => {
    if (card && owner) place(card, owner);
  }, { passive: true });
}
