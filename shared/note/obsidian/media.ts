// Markdown images and links that point into the vault: `![alt|300](img.png)` and
// `![alt|300x200](url)` are sized (Obsidian's syntax), a relative image or file is the
// published attachment, `[text](Other%20note.md#Part)` is the note's address; a link to
// a note or file a visitor cannot see reads as an unresolved wikilink, an image of one is
// nothing. What Obsidian writes with wikilinks turned off reads as its wikilink would: an
// embed written as an image (`![](manual.pdf)`), a link into the note's own heading
// (`[x](#A%20heading)`); an `obsidian://open` link is the note's. A YouTube video or an X post
// in image syntax is Obsidian's web embed (web-embeds.ts). ` ```mermaid ` stays readable code
// until the diagram script draws it.
import type MarkdownIt from 'markdown-it';
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import type Token from 'markdown-it/lib/token.mjs';
import type { NoteEnv } from '../env.ts';
import { escapeHtml } from '../escape.ts';
import { isVaultHref, safeDecode, WEB_ADDRESS } from '../../link-address.ts';
import { slotOrHtml } from '../slots.ts';
import { webEmbedHtml } from './web-embeds.ts';
import { linkedDiagramNodes } from './diagram-links.ts';
import { findHeading, headingAnchor } from './headings.ts';
import { embedToken } from './wikilinks.ts';

const SIZE = /\|(\d+)(?:x(\d+))?[ \t]*$/;
/** `![250](url)`: an alt text of a size alone is the size, as Obsidian reads it. */
const SIZE_ALONE = /^[ \t]*(\d+)(?:x(\d+))?[ \t]*$/;

/** `alt|300` or `300` alone → width 300 (and `alt|300x200` a height), the alt text without it. */
function takeSize(token: Token): void {
  const last = token.children?.at(-1);
  const alone = token.children?.length === 1;
  const m = last?.type === 'text' ? (SIZE.exec(last.content) ?? (alone ? SIZE_ALONE.exec(last.content) : null)) : null;
  if (!m) return;
  last!.content = last!.content.slice(0, m.index).trimEnd();
  token.attrSet('width', m[1]!);
  if (m[2]) token.attrSet('height', m[2]);
}

/** A picture's file: the Markdown image syntax shows it as an image. */
const PICTURE_FILE = /\.(png|jpe?g|gif|webp|avif|svg|bmp|ico|tiff?|heic)$/i;

/**
 * `![](Other%20note.md)`, `![](manual.pdf#page=3)`, `![|300](clip.mp4)`: an embed written as
 * a Markdown image, as Obsidian writes embeds when wikilinks are turned off. A vault path that
 * is no picture is read as its `![[…]]` is (a note or a section of one, a PDF, audio, video,
 * a drawing); a picture stays an image. Right after the inline parse, as the wikilink rule's own tokens.
 */
function markdownEmbeds(state: StateCore): void {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children?.some((t) => t.type === 'image')) continue;
    block.children = block.children.map((t) => {
      const src = t.type === 'image' ? (t.attrGet('src') ?? '') : '';
      if (!isVaultHref(src)) return t;
      const hashAt = src.indexOf('#');
      const target = safeDecode(hashAt >= 0 ? src.slice(0, hashAt) : src).trim();
      if (target === '' || PICTURE_FILE.test(target)) return t;
      const subpath = hashAt >= 0 ? safeDecode(src.slice(hashAt + 1)).split('#').map((s) => s.trim()).filter(Boolean) : [];
      const size = SIZE.exec(t.content);
      const alias = size ? size[0].slice(1).trim() : t.content.trim() || null;
      return embedToken(state, { target, subpath, alias }, t.content);
    });
  }
}

/** The vault path an `obsidian://open?vault=…&file=Note` link opens, percent-encoded as a Markdown link writes it; null for any other. */
function openedFile(href: string): string | null {
  if (!/^obsidian:\/\/open\?/i.test(href)) return null;
  let file: string | null;
  try {
    file = new URL(href).searchParams.get('file');
  } catch {
    return null;
  }
  if (!file || file.trim() === '') return null;
  return file.trim().split('/').map(encodeURIComponent).join('/');
}

/**
 * `[text](obsidian://open?vault=My%20Vault&file=Other%20note)` ("Copy Obsidian URL") opens the
 * note in the owner's Obsidian: a reader has no such vault. It is read as a link to that note
 * (its page when published, the words alone when not), as a Markdown link to it would be.
 */
function obsidianUriLinks(state: StateCore): void {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.content.includes('obsidian://')) continue;
    for (const t of block.children ?? []) {
      const file = t.type === 'link_open' ? openedFile(t.attrGet('href') ?? '') : null;
      if (file !== null) t.attrSet('href', file);
    }
  }
}

/**
 * `[text](#A%20heading)`, as Obsidian writes a link into the note's own heading when wikilinks
 * are off: the heading's id on the page, as `[[#A heading]]` leads there (`#^id` a block's).
 * An anchor no heading of the note answers is left as written (an id the note's HTML gives).
 */
function sameNoteAnchor(token: Token, href: string, env: NoteEnv): void {
  const ref = safeDecode(href.slice(1));
  if (ref.startsWith('^')) return token.attrSet('href', `#^${encodeURIComponent(ref.slice(1))}`);
  const headings = env.headings ?? [];
  if (findHeading(headings, ref.split('#')) >= 0) token.attrSet('href', headingAnchor(headings, ref.split('#')));
}

export function mediaPlugin(md: MarkdownIt): void {
  md.core.ruler.after('inline', 'markdown_embeds', markdownEmbeds);
  md.core.ruler.after('markdown_embeds', 'obsidian_uri_links', obsidianUriLinks);
  const defaultImage = md.renderer.rules.image!;
  md.renderer.rules.image = (tokens, idx, opts, env: NoteEnv, self) => {
    const token = tokens[idx]!;
    takeSize(token);
    const src = token.attrGet('src') ?? '';
    if (WEB_ADDRESS.test(src)) {
      const embed = webEmbedHtml(src, self.renderInlineAsText(token.children ?? [], opts, env), { width: token.attrGet('width'), height: token.attrGet('height') });
      if (embed !== null) return embed;
      token.attrSet('loading', 'lazy');
      return defaultImage(tokens, idx, opts, env, self);
    }
    return slotOrHtml(env, {
      kind: 'image',
      src,
      alt: self.renderInlineAsText(token.children ?? [], opts, env),
      title: token.attrGet('title'),
      width: token.attrGet('width'),
      height: token.attrGet('height'),
    });
  };

  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, opts, _env, self) => self.renderToken(tokens, idx, opts));
  md.renderer.rules.link_open = (tokens, idx, opts, env: NoteEnv, self) => {
    const token = tokens[idx]!;
    const href = token.attrGet('href') ?? '';
    if (href.length > 1 && href.startsWith('#')) sameNoteAnchor(token, href, env);
    if (/^https?:/i.test(href)) token.attrSet('rel', 'noopener');
    if (!isVaultHref(href)) return defaultLinkOpen(tokens, idx, opts, env, self);
    // A vault path: a note's address or a published file, as the vault decides.
    return slotOrHtml(env, { kind: 'link', href, attrs: (token.attrs ?? []).filter(([k]) => k !== 'href') });
  };
  const defaultLinkClose = md.renderer.rules.link_close ?? ((tokens, idx, opts, _env, self) => self.renderToken(tokens, idx, opts));
  md.renderer.rules.link_close = (tokens, idx, opts, env: NoteEnv, self) => {
    // Links do not nest: the link this closes is the last one opened.
    let open = idx - 1;
    while (open >= 0 && tokens[open]!.type !== 'link_open') open--;
    const href = tokens[open]?.attrGet('href') ?? '';
    if (!isVaultHref(href)) return defaultLinkClose(tokens, idx, opts, env, self);
    return slotOrHtml(env, { kind: 'link_close', href });
  };

  const defaultFence = md.renderer.rules.fence!;
  md.renderer.rules.fence = (tokens, idx, opts, env, self) => {
    const token = tokens[idx]!;
    if (token.info.trim().split(/\s+/)[0]!.toLowerCase() === 'mermaid') {
      const nodes = linkedDiagramNodes(token.content);
      // Its linked nodes' addresses, per page (slots.ts): the client wraps each drawn node in its link.
      const links = nodes.length ? slotOrHtml(env, { kind: 'diagram', nodes }) : '';
      return `<pre class="mermaid"${links}>${escapeHtml(token.content)}</pre>\n`;
    }
    return defaultFence(tokens, idx, opts, env, self);
  };
}
