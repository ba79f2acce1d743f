// Bare URLs link (linkify-it, as Obsidian does), but linkify-it's pretest runs one long
// regular expression (every scheme, every top-level domain) over every paragraph: about
// 20 ms a thousand notes, on the build's busiest thread. Whatever it answers yes for holds
// a `:` (a scheme: `https:`, `mailto:`), an `@` (an address), `//` (a link without its
// scheme), `localhost`, `www.` (even at the end of the text), or a `.` followed by something
// other than a space (a host's top-level domain, an address's digits). A text holding none of those is answered
// "no" at once; any other goes to linkify-it's own pretest, so its answers are unchanged
// (test/unit/link-pretest.test.ts).
import type MarkdownIt from 'markdown-it';

const MAY_HOLD_A_LINK = /[:@]|\.\S|\/\/|localhost|www\./i;

/** Answers linkify-it's pretest for texts that can hold no link without running it. */
export function guardLinkPretest(md: MarkdownIt): void {
  const pretest = md.linkify.pretest.bind(md.linkify);
  md.linkify.pretest = (text: string) => MAY_HOLD_A_LINK.test(text) && pretest(text);
}
