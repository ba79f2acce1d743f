// A title's bidi controls never reach past the title (shared/note/bidi.ts): whatever a
// vault's title opens (an embedding, an override, an isolate) is closed where the title
// ends, stray closers go, and marks and balanced controls are kept as written.
import { describe, expect, it } from 'vitest';
import { closedBidi } from '../../shared/note/bidi.ts';
import { titleOf } from '../../shared/note/title.ts';

const [LRE, RLE, PDF, LRO, RLO] = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e'];
const [LRI, RLI, FSI, PDI] = ['\u2066', '\u2067', '\u2068', '\u2069'];
const [LRM, RLM, ALM] = ['\u200e', '\u200f', '\u061c'];

/** True when every control the text opens is closed within it, in order (UAX #9's stack). */
function balanced(text: string): boolean {
  const open: string[] = [];
  for (const ch of text) {
    if ([LRE, RLE, LRO, RLO].includes(ch)) open.push(PDF);
    else if ([LRI, RLI, FSI].includes(ch)) open.push(PDI);
    else if (ch === PDF && open.pop() !== PDF) return false;
    else if (ch === PDI) {
      const at = open.lastIndexOf(PDI);
      if (at < 0) return false;
      open.splice(at);
    }
  }
  return open.length === 0;
}

describe('a title closes the bidi controls it opens', () => {
  it('an open override, embedding or isolate is closed at the end, innermost first', () => {
    expect(titleOf({ title: `Invoice ${RLO}fdp.exe` }, '', 'f.md')).toBe(`Invoice ${RLO}fdp.exe${PDF}`);
    expect(closedBidi(`a${RLE}b${LRI}c`)).toBe(`a${RLE}b${LRI}c${PDI}${PDF}`);
    expect(closedBidi(`${LRO}${RLO}x`)).toBe(`${LRO}${RLO}x${PDF}${PDF}`);
  });

  it('a stray closer goes; an isolate closed also closes the embeddings opened inside it', () => {
    expect(closedBidi(`x${PDF}y${PDI}z`)).toBe('xyz');
    expect(closedBidi(`${RLI}a${RLO}b${PDI}c`)).toBe(`${RLI}a${RLO}b${PDI}c`);
    // A PDF cannot close an embedding opened outside the isolate it sits in.
    expect(closedBidi(`${RLE}a${LRI}b${PDF}c`)).toBe(`${RLE}a${LRI}bc${PDI}${PDF}`);
  });

  it('marks and balanced controls stay as written; a title without controls is the same string', () => {
    const arabic = `كتاب ${LRI}C++${PDI} للمبتدئين${RLM}`;
    expect(titleOf({ title: arabic }, '', 'f.md')).toBe(arabic);
    expect(closedBidi(`a${LRM}b${ALM}c${RLE}d${PDF}`)).toBe(`a${LRM}b${ALM}c${RLE}d${PDF}`);
    const plain = 'Plain title';
    expect(closedBidi(plain)).toBe(plain);
  });

  it('whatever the controls, from frontmatter, a heading or a file name, the title is balanced', () => {
    const controls = [LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI, LRM, 'a', 'ب'];
    let seed = 7;
    const pick = () => controls[(seed = (seed * 48271) % 2147483647) % controls.length]!;
    for (let i = 0; i < 500; i++) {
      const text = Array.from({ length: 1 + (i % 12) }, pick).join('') + 'x';
      expect(balanced(titleOf({ title: text }, '', 'f.md')), JSON.stringify(text)).toBe(true);
      expect(balanced(titleOf({}, `# ${text}\nbody`, 'f.md'))).toBe(true);
      expect(balanced(titleOf({}, 'body', `${text}.md`))).toBe(true);
    }
  });
});
