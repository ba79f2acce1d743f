// scripts/early-partner.cjs starts `npm run build`'s partner before the bundle is loaded; the
// bundle (site/build/build-thread-link.ts) takes it as one of its own. The two must agree on what
// a partner is started with.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { PARTNER_HEAP_MB, PARTNER_ROLE } from '../../site/build/build-thread-link.ts';

const { PARTNER } = createRequire(import.meta.url)('../../scripts/early-partner.cjs') as { PARTNER: { role: string; heapMb: number } };

describe('early partner', () => {
  it("is started with the bundle's own partner role and heap cap", () => {
    expect(PARTNER).toEqual({ role: PARTNER_ROLE, heapMb: PARTNER_HEAP_MB });
  });
});
