// Bare addresses link as GitHub Flavored Markdown links them, the dialect Obsidian reads: a
// URL with its scheme (`https://…`, `mailto:…`), a `www.` host, an email address. A bare
// domain does not: linkify-it's fuzzy links made `README.md`, `config.py` and `v2.io` links
// to Moldova, Paraguay and the British Indian Ocean Territory. Real vaults hold many URLs,
// so the work is kept small: linkify-it's `http:` expression runs once a URL (its own
// validator ran it twice), and texts that can hold no link skip its scans (MAY_HOLD_A_LINK).
import type MarkdownIt from 'markdown-it';

type Linkify = MarkdownIt['linkify'];
/** linkify-it's expression sources, which its README offers custom schemas to build from. */
type Sources = Record<'src_auth' | 'src_host_port_strict' | 'src_path', string>;

/**
 * Whatever linkify-it can link here holds a `:` (a scheme: `https:`, `mailto:`), an `@` (an
 * address), `//` (a link without its scheme) or `www.`; a text holding none is answered "no"
 * without its pretest (one long expression over every paragraph) or its scans.
 */
const MAY_HOLD_A_LINK = /[:@]|\/\/|www\./i;

/** linkify-it's `http:` validator's expression (an address after `scheme:`), made once per compile of its sources. */
function httpTail(): (sources: Sources) => RegExp {
  let madeFrom: Sources | null = null;
  let expression = /$^/;
  return (sources) => {
    if (madeFrom !== sources) {
      madeFrom = sources;
      expression = new RegExp(`^\\/\\/${sources.src_auth}${sources.src_host_port_strict}${sources.src_path}`, 'i');
    }
    return expression;
  };
}

/** Makes `md` link bare addresses the GFM way (see above). */
export function linkBareAddresses(md: MarkdownIt): void {
  const linkify: Linkify = md.linkify;
  const http = httpTail();
  const tailLength = (tail: string, self: Linkify) => http(self.re as unknown as Sources).exec(tail)?.[0].length ?? 0;
  linkify.set({ fuzzyLink: false, fuzzyEmail: true });
  // `https:` and `ftp:` are linkify-it's aliases of `http:`: they take this validator too.
  linkify.add('http:', { validate: (text, pos, self) => tailLength(text.slice(pos), self) });
  // GFM's www autolink: what follows `www.` is read as the host and path of `http://www.…`.
  linkify.add('www.', {
    validate: (text, pos, self) => Math.max(0, tailLength('//www.' + text.slice(pos), self) - '//www.'.length),
    normalize: (match) => {
      match.url = `http://${match.url}`;
    },
  });
  const pretest = linkify.pretest.bind(linkify);
  const test = linkify.test.bind(linkify);
  linkify.pretest = (text: string) => MAY_HOLD_A_LINK.test(text) && pretest(text);
  linkify.test = (text: string) => MAY_HOLD_A_LINK.test(text) && test(text);
}
