// spec 8: the mirror's per-file decision (first contact: the vault wins; then the
// changed side, then the newest copy) and the uploaded-font caps.
import { describe, expect, it } from 'vitest';
import { planFonts } from '../../admin/travel/font-caps.ts';
import { mergeJson } from '../../admin/travel/merge.ts';
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

describe('both sides changed a JSON file: merged key by key against the agreed copy', () => {
  const base = { siteName: 'Old', tagline: 'Old', home: { mode: 'note', banner: null }, footer: 'Kept' };
  it('keys only one side changed take that side, in nested groups too', () => {
    const local = { ...base, siteName: 'From A', home: { mode: 'dashboard', banner: null } };
    const vault = { ...base, tagline: 'From B', home: { mode: 'note', banner: 'b.png' } };
    expect(mergeJson(base, local, vault, 'vault')).toEqual({
      value: { siteName: 'From A', tagline: 'From B', home: { mode: 'dashboard', banner: 'b.png' }, footer: 'Kept' },
      conflicts: [],
    });
  });
  it('a key one side removed stays removed; a key one side added is kept', () => {
    const { footer: _gone, ...local } = base;
    const vault = { ...base, logo: 'logo.png' };
    expect(mergeJson(base, local, vault, 'vault').value).toEqual({ siteName: 'Old', tagline: 'Old', home: base.home, logo: 'logo.png' });
  });
  it('a key both changed differently goes to the newer side, and is named', () => {
    const local = { ...base, siteName: 'A', tagline: 'A' };
    const vault = { ...base, siteName: 'B' };
    expect(mergeJson(base, local, vault, 'vault')).toEqual({ value: { ...base, siteName: 'B', tagline: 'A' }, conflicts: ['siteName'] });
    expect(mergeJson(base, local, vault, 'local').value).toEqual({ ...base, siteName: 'A', tagline: 'A' });
  });
  it('both sides making the same change is no conflict; lists are values', () => {
    const b = { tags: ['x'], n: 1 };
    expect(mergeJson(b, { tags: ['x', 'y'], n: 2 }, { tags: ['x', 'y'], n: 1 }, 'vault')).toEqual({ value: { tags: ['x', 'y'], n: 2 }, conflicts: [] });
    expect(mergeJson(b, { tags: ['a'], n: 1 }, { tags: ['b'], n: 1 }, 'local')).toEqual({ value: { tags: ['a'], n: 1 }, conflicts: ['tags'] });
  });
  it('a __proto__ key from a vault copy stays a plain key', () => {
    const vault = JSON.parse('{"siteName":"Old","__proto__":{"polluted":true}}') as Record<string, unknown>;
    const merged = mergeJson({ siteName: 'Old' }, { siteName: 'New' }, vault, 'vault').value as Record<string, unknown>;
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect((merged as { polluted?: boolean }).polluted).toBeUndefined();
    expect(JSON.stringify(merged)).toBe('{"siteName":"New","__proto__":{"polluted":true}}');
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
