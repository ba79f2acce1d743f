// Everything the note model takes from a note's text, from one parse of its public
// Markdown (private comments already gone): inline tags, links and embeds, headings,
// whether it has math or a diagram, its excerpt and word count.
import type Token from 'markdown-it/lib/token.mjs';
import { isAttachmentTarget, mayNameFile, type WikiRef } from '../wikilinks.ts';
import type { NoteEnv } from './env.ts';
import { blocksText, countTokenWords, plainBlocks, plainBlocksOf } from './plain-text.ts';
import { excerptFromBlocks } from './excerpt.ts';
import { offerReadParse, prepareTokens, titleHeadingId } from './markdown.ts';
import { markdown } from './md.ts';
import { mergeConflicts } from './merge-conflicts.ts';
import { noteRest } from './parse-budget.ts';
import { formulaFits, newMathBudget } from './render-budget.ts';
import type { HeadingInfo } from './obsidian/headings.ts';
import { isVaultHref, safeDecode } from '../link-address.ts';
import type { PreparedHtml } from './slots.ts';
import { isImageName, type WikiMeta } from './obsidian/wikilinks.ts';

export interface NoteFacts {
  /** Inline `#tags` in order of appearance, without `#`, first spelling of each kept. */
  tags: string[];
  /** Note targets of links, as written (wikilinks and Markdown links to .md; embeds are `transclusions`). */
  links: string[];
  /** Attachment targets: embedded or linked images and files, as written. */
  files: string[];
  /** The first image shown in the note (embedded, not only linked): the note's banner when none is named. */
  firstImage: string | null;
  /** Embedded notes and sections (`![[Note#Heading]]`). */
  transclusions: WikiRef[];
  /** Links into a heading or block, once each, as `target#A#B` (`#A` into the note itself): Site health checks they land. */
  anchors: string[];
  /** The ids of the note's blocks (`^id`, without the caret), as the page's elements carry them. */
  blockIds: string[];
  headings: HeadingInfo[];
  /** The id of the leading heading that became the title (the article's title carries it), or null. */
  titleId: string | null;
  math: boolean;
  /** Formulas past the note's math budget (render-budget.ts), shown as their TeX. */
  mathCut: number;
  /** Lines past the note's parse budget (parse-budget.ts), shown as written; 0 when none. */
  markupCut: number;
  /** Conflicts a git merge left in the text (merge-conflicts.ts); 0 when none. */
  conflicts: number;
  mermaid: boolean;
  excerpt: string;
  words: number;
  /** The note rendered once with holes for what the vault decides, when asked for (a published note). */
  prepared: PreparedHtml | null;
  /** Its public text (public-text.ts, from this same parse), when asked for (a published note: the search index reads it). */
  text: string | null;
}


function localTarget(href: string): string | null {
  if (!isVaultHref(href)) return null;
  return safeDecode(href.replace(/[#?][^]*$/, ''));
}

/**
 * The facts of a note's public Markdown (`publicBody`: comments already removed, see
 * comments.ts), from one parse; with `prepareFor` (its title) the same parse is also
 * rendered for its pages, and gives its search text unless `withText` is false. `title`
 * (the note's, when known) finds the heading it came from.
 */
export function analyzeNote(publicBody: string, prepareFor: string | null = null, title: string | null = prepareFor, withText = true): NoteFacts {
  const env: NoteEnv = {};
  const tokens = markdown().parse(publicBody, env);
  offerReadParse(publicBody, tokens, env);
  const facts: NoteFacts = {
    tags: [],
    links: [],
    files: [],
    firstImage: null,
    transclusions: [],
    anchors: [],
    blockIds: [],
    headings: env.headings ?? [],
    titleId: title === null ? null : titleHeadingId(tokens, title),
    math: false,
    mathCut: 0,
    markupCut: noteRest(env)?.lines ?? 0,
    conflicts: mergeConflicts(publicBody, tokens),
    mermaid: false,
    excerpt: '',
    words: 0,
    prepared: null,
    text: null,
  };
  const seenTags = new Set<string>();
  const anchors = new Set<string>();
  const math = newMathBudget();
  const visit = (list: Token[]) => {
    for (const t of list) {
      // A block's id as the renderer finds it for an embed (markdown.ts blockRange).
      if (t.block && t.attrs !== null && t.nesting !== -1) {
        const id = t.attrGet('id');
        if (id !== null && id.startsWith('^')) facts.blockIds.push(id.slice(1));
      }
      switch (t.type) {
        case 'obsidian_tag': {
          const key = t.content.toLowerCase();
          if (!seenTags.has(key)) {
            seenTags.add(key);
            facts.tags.push(t.content);
          }
          break;
        }
        case 'wikilink':
        case 'obsidian_embed': {
          const meta = t.meta as WikiMeta;
          const anchored = !meta.embed && meta.subpath.length > 0;
          if (meta.target === '') {
            if (anchored) anchors.add(`#${meta.subpath.join('#')}`);
            break;
          }
          if (isAttachmentTarget(meta.target)) {
            facts.files.push(meta.target);
            if (meta.embed && isImageName(meta.target)) facts.firstImage ??= meta.target;
            break;
          }
          if (meta.embed) facts.transclusions.push({ target: meta.target, subpath: meta.subpath, alias: meta.alias });
          else facts.links.push(meta.target);
          if (anchored) anchors.add(`${meta.target}#${meta.subpath.join('#')}`);
          // `[[Node.js]]`: a note first, a file of that name when none answers (its page links or shows it then).
          if (mayNameFile(meta.target)) facts.files.push(meta.target);
          break;
        }
        case 'image': {
          const target = localTarget(t.attrGet('src') ?? '');
          if (target) {
            facts.files.push(target);
            if (isImageName(target)) facts.firstImage ??= target;
          }
          break;
        }
        case 'link_open': {
          // Read as a wikilink's target is: `[x](Other)` and `[x](Other.md)` link the note, `[x](a.pdf)` the file.
          const target = localTarget(t.attrGet('href') ?? '');
          if (!target) break;
          if (isAttachmentTarget(target)) {
            facts.files.push(target);
            break;
          }
          facts.links.push(target);
          if (mayNameFile(target)) facts.files.push(target);
          break;
        }
        case 'math_inline':
        case 'math_block':
        case 'math_inline_block':
          facts.math = true;
          // Counted as the renderer spends its budget (md.ts boundMath): the formulas shown as TeX.
          if (!formulaFits(math, t.content)) facts.mathCut++;
          break;
        case 'fence':
          if (t.info.trim().split(/\s+/)[0]!.toLowerCase() === 'mermaid') facts.mermaid = true;
          break;
      }
      if (t.children) visit(t.children);
    }
  };
  visit(tokens);
  facts.anchors = [...anchors];
  facts.excerpt = excerptFromBlocks(plainBlocksOf(tokens));
  facts.words = countTokenWords(tokens);
  if (prepareFor !== null) {
    if (withText) facts.text = blocksText(plainBlocks(tokens));
    facts.prepared = prepareTokens(tokens, env, prepareFor);
  }
  return facts;
}
