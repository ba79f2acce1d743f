// The editor's Markdown dialect: GFM as CodeMirror ships it, plus the two things a
// vault has on every page: a YAML frontmatter block at the top (spec 2.4; otherwise
// its closing `---` reads as a heading underline) and [[wikilinks]]; and math, inside
// which a [[link]] is math, as the site reads it.
import { markdownLanguage } from '@codemirror/lang-markdown';
import { Language, LanguageSupport } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import type { MarkdownConfig, MarkdownParser } from '@lezer/markdown';

const Frontmatter: MarkdownConfig = {
  defineNodes: [
    { name: 'Frontmatter', block: true, style: tags.meta },
    { name: 'FrontmatterMark', style: tags.processingInstruction },
  ],
  parseBlock: [
    {
      name: 'Frontmatter',
      before: 'LinkReference',
      parse(cx, line) {
        if (cx.lineStart !== 0 || line.text.trimEnd() !== '---') return false;
        const start = cx.lineStart;
        const marks = [cx.elt('FrontmatterMark', start, start + 3)];
        let closed = false;
        while (cx.nextLine()) {
          const text = line.text.trimEnd();
          if (text === '---' || text === '...') {
            marks.push(cx.elt('FrontmatterMark', cx.lineStart, cx.lineStart + 3));
            closed = true;
            cx.nextLine();
            break;
          }
        }
        cx.addElement(cx.elt('Frontmatter', start, closed ? cx.prevLineEnd() : cx.lineStart, marks));
        return true;
      },
    },
  ],
};

const OPEN_BRACKET = 91;

const WikiLink: MarkdownConfig = {
  defineNodes: [{ name: 'WikiLink', style: tags.link }],
  parseInline: [
    {
      name: 'WikiLink',
      before: 'Link',
      parse(cx, next, pos) {
        if (next !== OPEN_BRACKET || cx.char(pos + 1) !== OPEN_BRACKET) return -1;
        const rest = cx.slice(pos + 2, cx.end);
        const close = rest.indexOf(']]');
        if (close <= 0 || rest.slice(0, close).includes('\n') || rest.slice(0, close).includes('[')) return -1;
        return cx.addElement(cx.elt('WikiLink', pos, pos + close + 4));
      },
    },
  ],
};

const DOLLAR = 36;
const BACKSLASH = 92;
/** A letter, digit or `_` (-1, past either end, is none): math's `$` never touches one outside. */
const isWord = (ch: number) => ch >= 0 && /\w/.test(String.fromCharCode(ch));

/**
 * Math as the site's renderer reads it (@vscode/markdown-it-katex): `$…$` inline when the
 * opening `$` follows no word and the closing one precedes none; a block from a line opening
 * with `$$` to the next line holding `$$`. Only to know what is math: a link inside is no link.
 */
const MathSyntax: MarkdownConfig = {
  defineNodes: [{ name: 'InlineMath' }, { name: 'BlockMath', block: true }],
  parseInline: [
    {
      name: 'InlineMath',
      before: 'InlineCode',
      parse(cx, next, pos) {
        if (next !== DOLLAR) return -1;
        const before = cx.char(pos - 1);
        if (before === DOLLAR || before === BACKSLASH || cx.char(pos + 1) === DOLLAR || isWord(before)) return -1;
        let close = pos + 1;
        for (; close < cx.end; close++) {
          if (cx.char(close) !== DOLLAR) continue;
          let slashes = 0;
          while (cx.char(close - 1 - slashes) === BACKSLASH) slashes++;
          if (slashes % 2 === 0) break;
        }
        if (close >= cx.end || close === pos + 1) return -1;
        const after = cx.char(close + 1);
        if (after === DOLLAR || isWord(after)) return -1;
        return cx.addElement(cx.elt('InlineMath', pos, close + 1));
      },
    },
  ],
  parseBlock: [
    {
      name: 'BlockMath',
      before: 'FencedCode',
      parse(cx, line) {
        if (line.next !== DOLLAR || line.indent - line.baseIndent >= 4 || !line.text.startsWith('$$', line.pos)) return false;
        const start = cx.lineStart + line.pos;
        const rest = line.text.slice(line.pos + 2);
        const closes = rest.split('$$').length - 1;
        // Two or more `$$` on the line is math inside a paragraph, not a block.
        if (closes > 1) return false;
        let closed = closes === 1 && rest.trimEnd().endsWith('$$');
        if (!closed) {
          while (cx.nextLine()) {
            if (line.text.includes('$$')) {
              closed = true;
              break;
            }
          }
        }
        if (closed) cx.nextLine();
        cx.addElement(cx.elt('BlockMath', start, closed ? cx.prevLineEnd() : cx.lineStart));
        return true;
      },
    },
  ],
};

const parser = (markdownLanguage.parser as MarkdownParser).configure([Frontmatter, WikiLink, MathSyntax]);

/** Only the Markdown parser: `markdown()` would also bundle HTML, CSS and JS parsers. */
export const vaultMarkdown = new LanguageSupport(new Language(markdownLanguage.data, parser, [], 'markdown'));
