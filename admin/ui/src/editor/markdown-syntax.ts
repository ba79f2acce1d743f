// The editor's Markdown dialect: GFM as CodeMirror ships it, plus the two things a
// vault has on every page: a YAML frontmatter block at the top (spec 2.4; otherwise
// its closing `---` reads as a heading underline) and [[wikilinks]].
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

const parser = (markdownLanguage.parser as MarkdownParser).configure([Frontmatter, WikiLink]);

/** Only the Markdown parser: `markdown()` would also bundle HTML, CSS and JS parsers. */
export const vaultMarkdown = new LanguageSupport(new Language(markdownLanguage.data, parser, [], 'markdown'));
