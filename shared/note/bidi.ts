// Bidi embeddings, overrides and isolates in one line of text a vault supplies (a title):
// each one left open is closed where the text ends, and a stray closer goes, so that a
// title's controls never reach past the title (an open U+202E in a card's title reversed
// the "by" line after it, and an admin list row). Marks (U+200E, U+200F, U+061C) change
// no one else's order and stay; a title that opens nothing is returned as it was.

const OPENS_EMBEDDING = new Set(['\u202a', '\u202b', '\u202d', '\u202e']);
const POP_EMBEDDING = '\u202c';
const OPENS_ISOLATE = new Set(['\u2066', '\u2067', '\u2068']);
const POP_ISOLATE = '\u2069';
const ANY_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

/** `text` with every bidi embedding, override and isolate it opens closed within it. */
export function closedBidi(text: string): string {
  if (!ANY_CONTROL.test(text)) return text;
  let out = '';
  // What is open, innermost last: an isolate's closer also closes the embeddings opened inside it (UAX #9).
  const open: string[] = [];
  for (const ch of text) {
    if (OPENS_EMBEDDING.has(ch)) open.push(POP_EMBEDDING);
    else if (OPENS_ISOLATE.has(ch)) open.push(POP_ISOLATE);
    else if (ch === POP_EMBEDDING) {
      // Closes the innermost embedding, unless an isolate was opened after it (then it is ignored).
      if (open.at(-1) !== POP_EMBEDDING) continue;
      open.pop();
    } else if (ch === POP_ISOLATE) {
      const at = open.lastIndexOf(POP_ISOLATE);
      if (at < 0) continue;
      open.splice(at);
    }
    out += ch;
  }
  return out + open.reverse().join('');
}
