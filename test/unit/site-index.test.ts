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
