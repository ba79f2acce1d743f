// The live site's index of addresses (site/serve/site-index.ts): a lenient spelling
// leads to the one real address when exactly one matches. Unicode normalisation
// counts as a spelling: a macOS (NFD) file name and a typed (NFC) address meet.
import { describe, expect, it } from 'vitest';
import { looseKey, SiteIndex } from '../../site/serve/site-index.ts';

const nfd = (s: string) => s.normalize('NFD');
const nfc = (s: string) => s.normalize('NFC');

function indexOf(addresses: string[], redirects: [string, string][] = []): SiteIndex {
  const index = new SiteIndex();
  const entries = addresses.map((a): [string, { file: string; type: 'html' }] => [a, { file: a.slice(1) + '.html', type: 'html' }]);
  index.apply({ full: true, dir: '/tmp/site', entries, upserts: entries, removals: [], nav: null, redirects, rendered: 0, ms: 0 });
  return index;
}

describe('looseKey', () => {
  it('is the same for the NFC and NFD forms of an address', () => {
    expect(looseKey(nfd('/Blog/Café-Crème'))).toBe(looseKey(nfc('/Blog/Café-Crème')));
    expect(looseKey(nfd('/Blog/Café Crème/'))).toBe(looseKey(nfc('/blog/café-crème')));
  });
});

describe('SiteIndex.canonical', () => {
  it('leads either form to the address the build made, whichever form that is', () => {
    expect(indexOf([nfd('/Blog/Café-Crème')]).canonical(nfc('/Blog/Café-Crème'))).toBe(nfd('/Blog/Café-Crème'));
    expect(indexOf([nfc('/Blog/Café-Crème')]).canonical(nfd('/blog/café-crème'))).toBe(nfc('/Blog/Café-Crème'));
  });

  it('leads nowhere when both forms are separate pages (two files that differ only in normalisation)', () => {
    const index = indexOf([nfd('/Blog/Café'), nfc('/Blog/Café')]);
    expect(index.canonical(nfc('/blog/café'))).toBeNull();
    expect(index.get(nfd('/Blog/Café'))).toBeDefined();
    expect(index.get(nfc('/Blog/Café'))).toBeDefined();
  });
});

describe('SiteIndex.redirect', () => {
  it('finds a moved address in either form', () => {
    const index = indexOf(['/New'], [[nfd('/Old/Café'), '/New']]);
    expect(index.redirect(nfd('/Old/Café'))).toBe('/New');
    expect(index.redirect(nfc('/Old/Café'))).toBe('/New');
    expect(indexOf(['/New'], [[nfc('/Old/Café'), '/New']]).redirect(nfd('/Old/Café'))).toBe('/New');
  });
});

describe('SiteIndex.canonical beyond the pages themselves', () => {
  it("an old address in another case or with a slash leads where the old one goes: /home for the home note's /Home", () => {
    const index = indexOf(['/', '/Posts/A'], [['/Home', '/']]);
    expect(index.canonical('/home')).toBe('/');
    expect(index.canonical('/HOME/')).toBe('/');
  });

  it("a folder's address leads to its folder note at X/index, as a static host serves X/index.html at X/", () => {
    const index = indexOf(['/Projects/Garden/index', '/Projects/Garden/Roses']);
    expect(index.canonical('/Projects/Garden')).toBe('/Projects/Garden/index');
    expect(index.canonical('/projects/garden/')).toBe('/Projects/Garden/index');
    expect(index.canonical('/Projects')).toBeNull();
  });

  it('a page of that spelling wins over a folder note or an old address, and two candidates lead nowhere', () => {
    expect(indexOf(['/Garden', '/Garden/index']).canonical('/garden')).toBe('/Garden');
    expect(indexOf(['/New'], [['/Garden', '/New'], ['/garden/', '/Other']]).canonical('/GARDEN')).toBeNull();
    expect(indexOf(['/A/index', '/New'], [['/a', '/New']]).canonical('/a/')).toBeNull();
  });
});

describe('SiteIndex.canonical, a trailing slash', () => {
  it("leads to the page of that exact spelling, even beside a page that differs only in case (two notes' addresses)", () => {
    const index = indexOf(['/Posts/Keeping-safe', '/Posts/keeping-safe']);
    expect(index.canonical('/Posts/Keeping-safe/')).toBe('/Posts/Keeping-safe');
    expect(index.canonical('/Posts/keeping-safe//')).toBe('/Posts/keeping-safe');
    expect(index.canonical('/posts/KEEPING-safe/')).toBeNull();
  });
});

describe('a hostile address', () => {
  it('is read in time proportional to its length: 100,000 slashes before a last letter and slash', () => {
    const started = performance.now();
    expect(looseKey(`/a${'/'.repeat(100_000)}b/`)).toBe(`/a${'/'.repeat(100_000)}b`);
    expect(performance.now() - started).toBeLessThan(200);
  });
});
