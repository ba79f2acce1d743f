// The address a public request names (shared/model/addresses.ts decodeRequestPath).
import { describe, expect, it } from 'vitest';
import { decodeRequestPath } from '../../shared/model/addresses.ts';

describe('decodeRequestPath', () => {
  it('decodes each segment: percent-encoded names, spaces and non-ASCII letters', () => {
    expect(decodeRequestPath('/Notes/My-Note')).toBe('/Notes/My-Note');
    expect(decodeRequestPath('/Caf%C3%A9/A%20b%3Fc%23d')).toBe('/Café/A b?c#d');
    expect(decodeRequestPath('/topic/parent/child')).toBe('/topic/parent/child');
  });

  it('an encoded slash is data, not a separator: no address has one', () => {
    for (const p of ['/Notes%2FMy-Note', '/Notes%2fMy-Note', '/topic/alpha%2Ffeed.xml', '/%2F', '/%2FNotes/My-Note']) expect(decodeRequestPath(p), p).toBeNull();
  });

  it('refuses dot segments, control characters, malformed escapes and a path not starting with a slash', () => {
    for (const p of ['/a/../b', '/a/%2e%2e/b', '/a%00b', '/a%0Ab', '/%E0%A4%A', '/%ff', 'Notes/My-Note', 'http://host/Notes']) expect(decodeRequestPath(p), p).toBeNull();
  });
});
