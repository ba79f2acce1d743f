// Every heading carries a link to itself (CONTRACT §12), shown on hover and focus. The link
// holds no text: its name is the page's "Link to this section" (an element of the frame,
// ANCHOR_LABEL_ID, in the site's language) followed by the heading's own text, so a feed or
// the admin's revision view, which have no such element, shows nothing of it.
import type MarkdownIt from 'markdown-it';
import { escapeHtml } from '../escape.ts';

/** The id of the page's hidden "Link to this section" (site/templates/_includes/frame.njk). */
export const ANCHOR_LABEL_ID = 's-anchor-label';

export function headingAnchorsPlugin(md: MarkdownIt): void {
  const close = md.renderer.rules.heading_close ?? ((tokens, idx, opts, _env, self) => self.renderToken(tokens, idx, opts));
  md.renderer.rules.heading_close = (tokens, idx, opts, env, self) => {
    // A heading is always open, inline, close.
    const open = tokens[idx - 2];
    const id = open?.type === 'heading_open' ? open.attrGet('id') : null;
    const anchor = id ? `<a class="s-anchor" href="#${escapeHtml(id)}" aria-labelledby="${ANCHOR_LABEL_ID} ${escapeHtml(id)}"></a>` : '';
    return anchor + close(tokens, idx, opts, env, self);
  };
}
