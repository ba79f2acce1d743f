// spec D.6: resting the pointer on (or tabbing to) a post link shows a scrollable
// card with the note's opening (or the heading's section or block its `#` names),
// rendered as its article renders it. It flips
// above the link near the window's bottom and stays while the pointer moves into
// it. Not on touch devices or under reduced motion. Fetched as a visitor would
// (no cookies), so an unpublished note has nothing to preview.
const SHOW_DELAY_MS = 350;
const HIDE_DELAY_MS = 250;
const BLOCKS = 8;
const GAP = 8;

/** A page's article, parsed (and scrubbed) once for every link to it, whatever part each shows. */
type Preview = { title: string; body: HTMLElement; dir: string; lang: string } | null;

const cache = new Map<string, Promise<Preview>>();

function sameSite(link: HTMLAnchorElement): boolean {
  return link.origin === location.origin && link.pathname !== location.pathname;
}

/**
 * A page of the site itself: HTML, and not an attachment (the server sends those in a
 * sandbox). A note can give any link the classes previews look for, and a .txt or .html
 * attachment holding an article's markup was once imported into the page as it was: a
 * <meta refresh> in it took a signed-in admin's tab elsewhere (a reviewer's find).
 */
function isSitePage(res: Response): boolean {
  const type = res.headers.get('content-type') ?? '';
  return res.ok && /^text\/html\b/i.test(type) && !/\bsandbox\b/i.test(res.headers.get('content-security-policy') ?? '');
}

/** Elements a preview never carries, whatever page it came from. */
const NEVER = 'script, iframe, frame, frameset, object, embed, meta, link, base, form, input, button, textarea, select, style, template, portal, noscript';
const SCRIPT_URL = /^\s*(javascript|vbscript|data):/i;

/** What could act (rather than be read) goes from a preview's nodes: elements, handlers, script URLs. */
function scrub(root: Element): void {
  root.querySelectorAll(NEVER).forEach((el) => el.remove());
  for (const el of [root, ...root.querySelectorAll('*')]) {
    for (const { name, value } of [...el.attributes]) {
      const lower = name.toLowerCase();
      const url = lower === 'href' || lower === 'src' || lower === 'xlink:href' || lower === 'action' || lower === 'poster';
      if (lower.startsWith('on') || lower === 'srcdoc' || lower === 'formaction' || (url && SCRIPT_URL.test(value) && !/^\s*data:image\//i.test(value))) el.removeAttribute(name);
    }
  }
}

/** KaTeX's stylesheet as previews brought it: a preview with math shows once it applies, never as raw MathML beside the math. */
let katexSheet: Promise<void> | null = null;

function katexStylesheet(href: string): Promise<void> {
  if (!katexSheet && document.querySelector('link[data-katex]')) return Promise.resolve(); // the page's own, loaded with it
  return (katexSheet ??= new Promise<void>((resolve) => {
    const sheet = document.createElement('link');
    sheet.rel = 'stylesheet';
    sheet.href = href;
    sheet.dataset.katex = '';
    sheet.onload = sheet.onerror = () => resolve();
    document.head.appendChild(sheet);
  }));
}

function load(href: string): Promise<Preview> {
  let pending = cache.get(href);
  if (!pending) {
    pending = fetch(href, { credentials: 'omit', headers: { accept: 'text/html' } })
      .then(async (res) => {
        if (!isSitePage(res)) return null;
        const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
        // A note's article, or the home note read at / (the blog's intro: the note has no page of its own).
        const body = doc.querySelector<HTMLElement>('.s-article .s-article-body, .s-intro .s-article-body');
        if (!body) return null;
        // Math in the preview needs KaTeX's stylesheet, which this page may not load: the site's own only.
        const katex = doc.querySelector<HTMLLinkElement>('link[data-katex]');
        const katexHref = katex ? new URL(katex.getAttribute('href') ?? '', href) : null;
        if (katex && katexHref?.origin === location.origin && katexHref.pathname.includes('/_s/')) await katexStylesheet(katexHref.href);
        const article = doc.querySelector<HTMLElement>('.s-article, .s-intro');
        // Scrubbed in the parsed document, which loads and runs nothing, before any node joins this page.
        scrub(body);
        return { title: doc.querySelector('.s-title')?.textContent ?? doc.querySelector<HTMLElement>('.s-intro')?.dataset.title ?? '', body, dir: article?.dir ?? '', lang: article?.lang ?? '' };
      })
      .catch(() => null);
    cache.set(href, pending);
  }
  return pending;
}

const HEADING = /^H([1-6])$/;

/**
 * The blocks a link shows: the part its `#` names, as Obsidian's page preview does (a
 * heading's section up to the next heading as high, a block by its id), else the opening.
 */
function blocksFor(body: HTMLElement, hash: string): Element[] {
  let id = '';
  try {
    id = decodeURIComponent(hash.slice(1));
  } catch {
    id = '';
  }
  const named = id ? body.ownerDocument.getElementById(id) : null;
  if (!named || !body.contains(named) || named === body) return Array.from(body.children).slice(0, BLOCKS);
  const level = HEADING.exec(named.tagName)?.[1];
  if (!level) return [named];
  const section: Element[] = [named];
  for (let next = named.nextElementSibling; next && section.length < BLOCKS; next = next.nextElementSibling) {
    const nextLevel = HEADING.exec(next.tagName)?.[1];
    if (nextLevel && nextLevel <= level) break;
    section.push(next);
  }
  return section;
}

function excerpt(preview: NonNullable<Preview>, hash: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const wrapper = document.createElement('div');
  wrapper.className = 's-article-body';
  if (preview.dir) wrapper.dir = preview.dir;
  if (preview.lang) wrapper.lang = preview.lang;
  for (const block of blocksFor(preview.body, hash)) {
    // A list item shown alone keeps its list, so it reads (and is marked) as one.
    const node = document.importNode(block, true);
    if (block.tagName === 'LI' && block.parentElement) {
      const list = document.createElement(block.parentElement.tagName === 'OL' ? 'ol' : 'ul');
      list.append(node);
      wrapper.append(list);
    } else wrapper.append(node);
  }
  fragment.append(wrapper);
  return fragment;
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
    const preview = await load(link.href.replace(/#[^]*$/, ''));
    if (!preview || owner !== link) return;
    card?.remove();
    card = document.createElement('div');
    card.className = 's-preview';
    card.setAttribute('role', 'tooltip');
    const title = document.createElement('p');
    title.className = 's-preview-title';
    title.textContent = preview.title;
    card.append(title, excerpt(preview, link.hash));
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
