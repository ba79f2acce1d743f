// A note's text as its article renders it, for the admin's preview and revision view
// (Appendix B: a revision "renders exactly as a note renders elsewhere"): the site's own
// renderer on the server, code highlighted as the build highlights it. What depends on the
// rest of the vault is left in holes (shared/note/slots.ts) that the app fills with its links.
import { parseFrontmatter } from '../../../shared/note/frontmatter.ts';
import { titleOf } from '../../../shared/note/title.ts';
import { directionOf, noteLanguage } from '../../../shared/note/language.ts';
import { prepareNoteHtml, type PreparedHtml } from '../../../shared/note/markdown.ts';
import { setStrictLineBreaks } from '../../../shared/note/line-breaks.ts';
import { strictLineBreaksOf } from '../../../shared/obsidian-app.ts';
import { publicMarkdown, publicTex } from '../../../shared/note/comments.ts';
import type { VaultPath } from '../../../shared/vault-path.ts';
import { drawingNoteBody } from '../../../shared/wikilinks.ts';

export interface NotePreview {
  title: string;
  lang: string;
  dir: 'rtl' | 'ltr';
  prepared: PreparedHtml;
}

/** `vaultDir`: the vault whose Obsidian settings decide how its lines break (shared/obsidian-app.ts), read at each preview. */
export function notePreview(path: VaultPath, text: string, vaultDir: string | null = null): NotePreview {
  if (vaultDir !== null) setStrictLineBreaks(strictLineBreaksOf(vaultDir));
  const isTex = /\.tex$/i.test(path);
  const parsed = parseFrontmatter(text, path);
  const source = drawingNoteBody(path) ?? parsed.body;
  // The title as the site takes it: from the text readers get (private comments left out).
  const body = isTex ? publicTex(source) : publicMarkdown(source);
  const title = titleOf(parsed.data, body, path.slice(path.lastIndexOf('/') + 1));
  const lang = noteLanguage(parsed.data, title, body);
  return { title, lang, dir: directionOf(lang), prepared: prepareNoteHtml(source, title, isTex) };
}
