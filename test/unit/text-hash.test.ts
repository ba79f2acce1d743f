// A note's hash is its text's SHA-1 in hex, however Node computes it: a restart compares the
// hashes a generation remembered with the vault's texts, so a different digest for the same
// text would take every note for edited (and a forged equal one would hide an edit).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashText } from '../../shared/note/text-hash.ts';

const texts = ['', 'plain ASCII note\n', '---\ntitle: مرحبا\n---\nنص عربي ✦ and “quotes”\n', 'emoji 🧭 and a lone surrogate \ud800 end', 'x'.repeat(3_000_000)];

describe('the hash of a note text', () => {
  it('is the SHA-1 of its UTF-8 bytes, in hex', () => {
    for (const text of texts) expect(hashText(text)).toBe(createHash('sha1').update(text, 'utf8').digest('hex'));
  });

  it('tells texts apart that differ by one character', () => {
    expect(hashText('a note\n')).not.toBe(hashText('a note \n'));
  });
});
