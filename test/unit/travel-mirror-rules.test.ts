// spec 8: the mirror's per-file decision (first contact: the vault wins; then the
// changed side, then the newest copy) and the uploaded-font caps.
import { describe, expect, it } from 'vitest';
import { planFonts } from '../../admin/travel/font-caps.ts';
import { decide, vet } from '../../admin/travel/mirror.ts';

const f = (hash: string, mtimeMs = 0) => ({ hash, mtimeMs, size: 1 });
const MB = 1024 * 1024;

describe('which copy wins', () => {
  it('first contact: the vault copy wins even when the local one is newer', () => {
    expect(decide(f('local', 2000), f('vault', 1000), undefined, false)).toBe('pull');
  });
  it('first contact with nothing in the vault: the local copy is carried', () => {
    expect(decide(f('local'), null, undefined, false)).toBe('push');
  });
  it('agreeing copies need nothing', () => {
    expect(decide(f('same'), f('same'), 'old', false)).toBeNull();
  });
  it('only one side changed since the last agreement: that side wins, whatever the clocks say', () => {
    expect(decide(f('new', 1), f('base', 9999), 'base', false)).toBe('push');
    expect(decide(f('base', 9999), f('new', 1), 'base', false)).toBe('pull');
  });
  it('both changed: the newest copy wins', () => {
    expect(decide(f('a', 2000), f('b', 1000), 'base', false)).toBe('push');
    expect(decide(f('a', 1000), f('b', 2000), 'base', false)).toBe('pull');
  });
  it('a deleted font is deleted on the other side; a deleted settings file is refilled', () => {
    expect(decide(null, f('base'), 'base', true)).toBe('delete-vault');
    expect(decide(f('base'), null, 'base', true)).toBe('delete-local');
    expect(decide(null, f('base'), 'base', false)).toBe('pull');
    expect(decide(f('base'), null, 'base', false)).toBe('push');
  });
});

describe('a copy is vetted before it is adopted', () => {
  it('truncated JSON, non-objects and bad settings values are refused', () => {
    expect(vet(Buffer.from('{"siteName": "x"'), 'settings', {})).toMatch(/not valid JSON/);
    expect(vet(Buffer.from('"text"'), 'json', {})).toMatch(/not a JSON object/);
    expect(vet(Buffer.from('[]'), 'settings', {})).toMatch(/not a settings object/);
    expect(vet(Buffer.from('{"home":{"mode":7}}'), 'settings', {})).toMatch(/home.mode/);
    expect(vet(Buffer.from('{"siteName":"ok"}'), 'settings', {})).toBeNull();
    expect(vet(Buffer.from([0xff, 0xfe, 0x00]), 'text', {})).toMatch(/UTF-8/);
    expect(vet(Buffer.alloc(0), 'binary', {})).toBe('is empty');
  });
});

describe('uploaded font caps', () => {
  it('a file over 5 MB stays behind, named with its reason', () => {
    const plan = planFonts([
      { rel: 'fonts/custom/big.woff2', size: 6 * MB, mtimeMs: 1, inVault: false },
      { rel: 'fonts/custom/small.woff2', size: 1 * MB, mtimeMs: 2, inVault: false },
    ]);
    expect([...plan.allowed]).toEqual(['fonts/custom/small.woff2']);
    expect(plan.leftBehind).toEqual([expect.objectContaining({ file: 'fonts/custom/big.woff2', code: 'file_cap' })]);
  });

  it('once the folder would pass 40 MB the remaining files stay behind; files already in the vault keep their place', () => {
    const fonts = Array.from({ length: 10 }, (_, i) => ({
      rel: `fonts/custom/f${i}.woff2`,
      size: 4.5 * MB,
      mtimeMs: 100 + i,
      inVault: i === 9,
    }));
    fonts.push({ rel: 'fonts/custom/index.json', size: 100, mtimeMs: 1, inVault: false });
    const plan = planFonts(fonts);
    // 8 × 4.5 MB = 36 MB fit; a ninth would make 40.5 MB.
    expect(plan.allowed.has('fonts/custom/f9.woff2')).toBe(true);
    expect(plan.allowed.has('fonts/custom/index.json')).toBe(true);
    expect(plan.allowed.size).toBe(9);
    expect(plan.leftBehind.map((p) => p.file)).toEqual(['fonts/custom/f7.woff2', 'fonts/custom/f8.woff2']);
    expect(plan.leftBehind.every((p) => p.code === 'folder_cap' && /40\.0 MB/.test(p.reason))).toBe(true);
  });
});
