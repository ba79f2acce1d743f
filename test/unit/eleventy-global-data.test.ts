// The templates read the render state as the global `vault`. Eleventy's pagination hands each
// page its data through ProxyWrap (page data over global data), which wraps every plain object
// it passes through in a new Proxy, at every lookup, unless the object is frozen. The state is
// given frozen so that `vault.site.strings.words` is plain property reads (issue 12: the proxies
// were about 4% of a 10,000-note build's CPU).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { types } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROJECT_DIR } from '../../shared/project-dir.ts';
import { configureEleventy, type EleventyConfig } from '../../site/build/eleventy-setup.ts';
import { emptyRender, renderState } from '../../site/build/render-state.ts';

// Not among the package's exports: loaded by its path, the file Pagination.js imports.
const PROXY_WRAP = pathToFileURL(path.join(PROJECT_DIR, 'node_modules/@11ty/eleventy/src/Util/Objects/ProxyWrap.js')).href;
const { ProxyWrap } = (await import(PROXY_WRAP)) as { ProxyWrap: (target: object, fallback: object) => unknown };

function globalData(): Map<string, () => unknown> {
  const data = new Map<string, () => unknown>();
  const config: EleventyConfig = {
    addPlugin: () => {},
    addExtension: () => {},
    addGlobalData: (name, fn) => data.set(name, fn),
    addFilter: () => {},
    setQuietMode: () => {},
    setUseGitIgnore: () => {},
    ignores: new Set(),
  };
  configureEleventy(config);
  return data;
}

describe('the render state as Eleventy global data', () => {
  it('reaches a paginated page unwrapped: no proxy at any depth', () => {
    const site = { name: 'Blog', strings: { words: 'words' } };
    renderState.current = { ...emptyRender(), site: site as never };
    const vault = globalData().get('vault')!();
    // As Pagination.js gives a page its data: the page's own over the global data.
    const page = ProxyWrap({ pagination: { items: [] } }, { vault }) as { vault: { site: typeof site } };
    expect(types.isProxy(page.vault)).toBe(false);
    expect(types.isProxy(page.vault.site)).toBe(false);
    expect(page.vault.site.strings.words).toBe('words');
    expect(page.vault.site).toBe(site);
    renderState.current = emptyRender();
  });

  it('an unfrozen state would come back as proxies (what the freeze avoids)', () => {
    const page = ProxyWrap({ pagination: { items: [] } }, { vault: { site: { strings: {} } } }) as { vault: { site: object } };
    expect(types.isProxy(page.vault.site)).toBe(true);
  });
});
