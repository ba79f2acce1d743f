// spec 8: device preferences merge per key, newest change wins, a cleared key stays
// cleared, sizes are bounded and malformed entries are dropped.
import { describe, expect, it } from 'vitest';
import {
  applyPrefChanges,
  checkPrefKey,
  emptyPrefs,
  liveKeys,
  mergePrefs,
  PREF_LIMITS,
  sanitizePrefs,
  serializePrefs,
  type PrefsDoc,
} from '../../admin/travel/prefs.ts';

const doc = (keys: PrefsDoc['keys']): PrefsDoc => ({ version: 1, keys });

describe('per key, the newest change wins', () => {
  it('whichever side merges first', () => {
    const a = doc({ theme: { at: 10, value: 'dark' }, width: { at: 30, value: 700 } });
    const b = doc({ theme: { at: 20, value: 'light' }, width: { at: 5, value: 900 } });
    expect(liveKeys(mergePrefs(a, b))).toEqual({ theme: 'light', width: 700 });
    expect(serializePrefs(mergePrefs(a, b))).toBe(serializePrefs(mergePrefs(b, a)));
  });

  it('a cleared key stays cleared against an older value, and the tombstone travels', () => {
    const a = doc({ vim: { at: 50, cleared: true } });
    const b = doc({ vim: { at: 40, value: true }, other: { at: 45, value: 1 } });
    const merged = mergePrefs(b, a);
    expect(liveKeys(merged)).toEqual({ other: 1 });
    expect(merged.keys.vim).toEqual({ at: 50, cleared: true });
  });

  it('a later value on another device brings a cleared key back', () => {
    expect(liveKeys(mergePrefs(doc({ k: { at: 1, cleared: true } }), doc({ k: { at: 2, value: 'x' } })))).toEqual({ k: 'x' });
  });

  it('a local change is stamped past the key\'s current stamp (a fast clock elsewhere cannot outvote it)', () => {
    const ahead = doc({ theme: { at: 9_000_000_000_000, value: 'dark' } });
    const changed = applyPrefChanges(ahead, { theme: 'light', gone: null }, 1000);
    expect(changed.keys.theme).toEqual({ at: 9_000_000_000_001, value: 'light' });
    expect(changed.keys.gone).toEqual({ at: 1000, cleared: true });
  });
});

describe('bounded sizes, malformed entries dropped', () => {
  it('drops entries with bad stamps, bad keys, oversized or missing values', () => {
    const { doc: clean, dropped } = sanitizePrefs({
      version: 1,
      keys: {
        good: { at: 1, value: 'x' },
        noStamp: { value: 'x' },
        badStamp: { at: 'yesterday', value: 1 },
        ['k'.repeat(PREF_LIMITS.keyLength + 1)]: { at: 1, value: 1 },
        huge: { at: 1, value: 'x'.repeat(PREF_LIMITS.valueBytes + 10) },
        noValue: { at: 1 },
        notAnObject: 7,
        cleared: { at: 2, cleared: true },
      },
    });
    expect(Object.keys(clean.keys).sort()).toEqual(['cleared', 'good']);
    expect(dropped).toBe(6);
  });

  it('keys named like what every object has (constructor, toString, __proto__…) are refused, by the rule, not a list', () => {
    for (const key of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__proto__', '__defineGetter__']) {
      expect(checkPrefKey(key), key).not.toBeNull();
    }
    expect(checkPrefKey('theme')).toBeNull();
    const raw = JSON.parse('{"version":1,"keys":{"toString":{"at":1,"value":"x"},"__proto__":{"at":1,"value":"y"},"theme":{"at":1,"value":"dark"}}}');
    const { doc: clean, dropped } = sanitizePrefs(raw);
    expect(Object.keys(clean.keys)).toEqual(['theme']);
    expect(dropped).toBe(2);
  });

  it('anything but an object reads as empty', () => {
    expect(sanitizePrefs('nope').doc).toEqual(emptyPrefs());
    expect(sanitizePrefs({ keys: [1, 2] }).doc).toEqual(emptyPrefs());
  });

  it('over the key cap, old tombstones go before any value', () => {
    const keys: PrefsDoc['keys'] = {};
    for (let i = 0; i < PREF_LIMITS.keyCount; i++) keys[`v${i}`] = { at: 1000 + i, value: i };
    keys.tomb = { at: 5000, cleared: true };
    const merged = mergePrefs(doc(keys), emptyPrefs());
    expect(Object.keys(merged.keys)).toHaveLength(PREF_LIMITS.keyCount);
    expect(merged.keys.tomb).toBeUndefined();
    expect(merged.keys.v0).toBeDefined();
  });
});
