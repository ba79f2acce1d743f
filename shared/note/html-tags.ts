// How the author's raw HTML is read tag by tag, as the HTML parser reads it: what the
// islands (raw-islands.ts) and the blocks a block id names (obsidian/html-block-ids.ts)
// both count elements with. No dependency: the admin's word counter loads this too.

export const VOID = new Set(['area', 'base', 'basefont', 'bgsound', 'br', 'col', 'embed', 'frame', 'hr', 'img', 'input', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
// Elements whose text is not markup to the HTML parser: what follows is theirs until their end tag.
export const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext']);
export const RAW_TEXT_END = new Map([...RAW_TEXT].map((name) => [name, new RegExp(`</${name}`, 'gi')]));
// A whole tag as markdown-it's own html rules read one (quoted values may hold `>`).
export const OPEN_TAG = /^<([A-Za-z][A-Za-z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*)\s*(\/?)>/;
export const CLOSE_TAG = /^<\/([A-Za-z][A-Za-z0-9-]*)\s*>/;
