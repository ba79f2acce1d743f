// A page's signature is made when first read: a static snapshot never reads
// one, so its build spends nothing on them; the server makes them all right after the
// plan (settleSigs), or a whole build's right after its answer (DueSigs, due-sigs.test.ts),
// before anything they read can change.
import { describe, expect, it } from 'vitest';
import type { Address } from '../../shared/model/addresses.ts';
import { DueSigs, settleSigs, withLazySig, type PlannedPage } from '../../site/plan/plan-types.ts';

function page(make: () => string): PlannedPage {
  return withLazySig({ address: '/a' as Address, file: 'a.html', kind: 'article', type: 'html', view: () => null }, make);
}

describe('lazy page signatures', () => {
  it('are not made until read, then made once', () => {
    let made = 0;
    const p = page(() => `sig-${++made}`);
    expect(made).toBe(0);
    expect(p.sig).toBe('sig-1');
    expect(p.sig).toBe('sig-1');
    expect(made).toBe(1);
  });

  it('keep the value they had when settled, whatever changes after', () => {
    let world = 'before';
    const pages = [page(() => `a:${world}`), page(() => `b:${world}`)];
    settleSigs(pages);
    world = 'after';
    expect(pages.map((p) => p.sig)).toEqual(['a:before', 'b:before']);
  });

  it('travel with a copy of the page that takes its signature by name, as the builder digests a plan', () => {
    const p = page(() => 'the-sig');
    const copy = { ...p, sig: `digest:${p.sig}` };
    expect(copy).toMatchObject({ address: '/a', file: 'a.html', kind: 'article', type: 'html', sig: 'digest:the-sig' });
    expect(typeof copy.view).toBe('function');
  });

  it('are all of one kind of object, whatever signature each makes (one shape, not a dictionary a page)', () => {
    const pages = [page(() => 'a'), page(() => 'b')];
    expect(Object.getPrototypeOf(pages[0])).toBe(Object.getPrototypeOf(pages[1]));
    expect(Object.getOwnPropertyDescriptor(pages[0], 'sig')).toBeUndefined();
  });

  it('owed by a whole build, are made once when settled, and owed no longer when one of them throws', () => {
    let made = 0;
    const due = new DueSigs();
    due.owe(new Map([['a', page(() => `a${++made}`)], ['b', page(() => `b${++made}`)]]));
    expect(due.owed).toBe(2);
    due.settle();
    due.settle();
    expect({ made, owed: due.owed }).toEqual({ made: 2, owed: 0 });
    due.owe(new Map([['c', page(() => { throw new Error('a broken page'); })]]));
    expect(() => due.settle()).toThrow('a broken page');
    expect(due.owed).toBe(0);
    expect(() => due.settle()).not.toThrow();
  });
});
