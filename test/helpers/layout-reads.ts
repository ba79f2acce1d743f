// Which readings of the layout (a position, a size, a scroll extent: what makes a browser lay
// the page out at once) the site's own scripts make while they run, as opposed to in a later
// frame or event. One made between two changes of the page lays the whole page out inside the
// script: on a long article, hundreds of milliseconds of a phone's main thread (site/client/main.ts).
import type { Browser, Page } from 'playwright-core';

/** Runs in the page before its scripts: wraps each reading, noting whether a site script (`/_s/…`) was running. */
function recorder(): void {
  const w = window as unknown as { layoutReads: { during: string[]; later: number } };
  w.layoutReads = { during: [], later: 0 };
  const note = (name: string) => {
    const script = document.currentScript as HTMLScriptElement | null;
    if (script && /\/_s\//.test(script.src)) w.layoutReads.during.push(name);
    else w.layoutReads.later++;
  };
  const getters: [object, string[]][] = [
    [Element.prototype, ['scrollTop', 'scrollLeft', 'scrollWidth', 'scrollHeight', 'clientTop', 'clientLeft', 'clientWidth', 'clientHeight']],
    [HTMLElement.prototype, ['offsetTop', 'offsetLeft', 'offsetWidth', 'offsetHeight', 'offsetParent', 'innerText']],
    [window, ['innerWidth', 'innerHeight', 'scrollX', 'scrollY', 'pageXOffset', 'pageYOffset']],
  ];
  for (const [owner, names] of getters) {
    for (const name of names) {
      const d = Object.getOwnPropertyDescriptor(owner, name);
      if (!d?.get) continue;
      const get = d.get;
      Object.defineProperty(owner, name, { ...d, get(this: unknown) { note(name); return get.call(this); } });
    }
  }
  const methods: [Record<string, unknown>, string][] = [[Element.prototype as never, 'getBoundingClientRect'], [Element.prototype as never, 'getClientRects'], [window as never, 'getComputedStyle']];
  for (const [owner, name] of methods) {
    const f = owner[name] as (...args: unknown[]) => unknown;
    owner[name] = function (this: unknown, ...args: unknown[]) {
      note(name);
      return f.apply(this, args);
    };
  }
}

/**
 * Opens `url` `width` px wide and answers the readings the site's scripts made while they
 * ran, once a few frames have passed and some reading was seen (the positive signal that the
 * recorder sees them at all).
 */
export async function layoutReadsOnOpen(browser: Browser, url: string, width: number): Promise<{ during: string[]; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  await context.addInitScript(recorder);
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.classList.contains('s-js'));
  const frames = () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
  await page.evaluate(frames);
  await page.waitForFunction(() => {
    const { during, later } = (window as unknown as { layoutReads: { during: string[]; later: number } }).layoutReads;
    return during.length + later > 0;
  });
  const during = await page.evaluate(() => (window as unknown as { layoutReads: { during: string[] } }).layoutReads.during);
  return { during, page };
}
