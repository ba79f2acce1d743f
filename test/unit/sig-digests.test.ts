// A remembered generation's signature digests (site/plan/sig-digests.ts): the same digests
// as hashing every page, with only the pages new or re-signed since the last record hashed.
import { expect, it } from 'vitest';
import { digest, SigDigests } from '../../site/plan/sig-digests.ts';

const site = (n: number, changed = new Map<number, string>()) =>
  Array.from({ length: n }, (_, i) => ({ address: `/Note-${i}`, sig: changed.get(i) ?? `sig of note ${i}` }));

it('gives every page its digest, hashing only what changed since the last record', () => {
  const hashed: string[] = [];
  const digests = new SigDigests((sig) => {
    hashed.push(sig);
    return digest(sig);
  });
  const first = site(1000);
  expect(digests.digests(first)).toEqual(first.map((p) => digest(p.sig)));
  expect(hashed).toHaveLength(1000);

  // One note edited, one page added, one removed: three hashes, the rest reused.
  hashed.length = 0;
  const next = [...site(999, new Map([[7, 'sig of note 7, edited']])), { address: '/New', sig: 'new' }];
  expect(digests.digests(next)).toEqual(next.map((p) => digest(p.sig)));
  expect(hashed).toEqual(['sig of note 7, edited', 'new']);

  // The page removed is forgotten: back again, it is hashed again.
  hashed.length = 0;
  const back = site(1000);
  expect(digests.digests(back)).toEqual(back.map((p) => digest(p.sig)));
  expect(hashed).toEqual(['sig of note 7', 'sig of note 999']);
});
