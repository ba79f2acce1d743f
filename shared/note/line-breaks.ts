// How this process's renderer reads a single line break inside a paragraph: as a break, as
// Obsidian shows it, or joining the lines when the vault has Obsidian's "Strict line breaks"
// on (shared/obsidian-app.ts). Its own module, free of the renderer, so the server can judge
// remembered pages by it without loading markdown-it (md.ts reads it at each parse).
let strict = false;

export const strictLineBreaksNow = (): boolean => strict;

export function setStrictLineBreaks(value: boolean): void {
  strict = value;
}
