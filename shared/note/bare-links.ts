// Bare addresses link as GitHub Flavored Markdown links them, the dialect Obsidian reads: a
// URL with its scheme (`https://…`, `mailto:…`), a `www.` host, an email address. A bare
// domain does not: linkify-it's fuzzy links made `README.md`, `config.py` and `v2.io` links
// to Moldova, Paraguay and the British Indian Ocean Territory. Real vaults hold many URLs,
// so the work is kept small: linkify-it's `http:` expression runs once a URL (its own
// validator ran it twice), and texts that can hold no link skip its scans (MAY_HOLD_A_LINK).
//
// Every schema's validator is ours, built from the expression sources linkify-it's README
// offers custom schemas, so that each can pass over a candidate linkify-it will drop anyway
// (KeptLinks): its match() reads every candidate of a text to the end of its address.
import type MarkdownIt from 'markdown-it';

type Linkify = MarkdownIt['linkify'];
/** linkify-it's expression sources, and the expression its match() finds emails with. */
type Sources = Record<
  'src_auth' | 'src_host_port_strict' | 'src_path' | 'src_domain' | 'src_domain_root' | 'src_port' | 'src_host_terminator' | 'src_email_name' | 'src_host_strict',
  string
> & { email_fuzzy_global: RegExp };
type Validate = (text: string, pos: number, self: Linkify) => number;

/**
 * Whatever linkify-it can link here holds a `:` (a scheme: `https:`, `mailto:`), an `@` (an
 * address), `//` (a link without its scheme) or `www.`; a text holding none is answered "no"
 * without its pretest (one long expression over every paragraph) or its scans.
 */
const MAY_HOLD_A_LINK = /[:@]|\/\/|www\./i;

/** An expression made from linkify-it's sources, made again when they are (a `linkify.set` or `add` compiles them anew). */
function fromSources(make: (sources: Sources) => RegExp): (sources: Sources) => RegExp {
  let madeFrom: Sources | null = null;
  let expression = /$^/;
  return (sources) => {
    if (madeFrom !== sources) {
      madeFrom = sources;
      expression = make(sources);
    }
    return expression;
  };
}

/**
 * linkify-it's match() validates every candidate of a text, reading each to the end of its
 * address, before it keeps the first of each overlapping run and drops the others. Thousands
 * of candidates inside one address (`www.www.www.…`, `//a.b//a.b…`) were thousands of reads
 * of it: a 200 KB note took two minutes to parse. This follows match()'s choice as the
 * candidates come (in the order of their places, the emails found between them as match()
 * finds them): a candidate that starts inside a link kept before it is one match() drops, and
 * is answered 0 without reading it.
 */
class KeptLinks {
  private text = '';
  /** Where the last candidate asked about starts: a candidate at or before it begins a new scan of the text. */
  private last = -1;
  /** Where the last kept link ends. */
  private end = 0;
  /** The next email not yet weighed: its start (Infinity: none left; -1: not looked for) and end. */
  private emailAt = -1;
  private emailEnd = 0;
  private emails = /$^/g;

  constructor(private readonly emailExpression: (self: Linkify) => RegExp) {}

  /** Whether match() drops the candidate that starts at `index` of `text`. */
  drops(text: string, index: number, self: Linkify): boolean {
    if (text !== this.text || index <= this.last) this.restart(text, self);
    this.last = index;
    // Emails before it are kept first when they start after the last kept link (a candidate at
    // the start of a text has none before it: linkify-it's matchAtStart asks about no other).
    if (index > 0) this.weighEmailsBefore(index);
    return index < this.end;
  }

  /** The candidate at `index` reads as a link to `end`: match() keeps it (or an email at the same place that runs further, which leaves the later candidates as this would). */
  kept(end: number): void {
    this.end = end;
  }

  private restart(text: string, self: Linkify): void {
    this.text = text;
    this.end = 0;
    this.emailAt = -1;
    this.emails = this.emailExpression(self);
    this.emails.lastIndex = 0;
  }

  private weighEmailsBefore(index: number): void {
    for (;;) {
      if (this.emailAt === -1) this.findEmail();
      if (this.emailAt >= index) return;
      if (this.emailAt >= this.end) this.end = this.emailEnd;
      this.emailAt = -1;
    }
  }

  private findEmail(): void {
    const m = this.emails.exec(this.text);
    if (!m) {
      this.emailAt = Infinity;
      return;
    }
    this.emailAt = m.index + m[1]!.length;
    this.emailEnd = m.index + m[0].length;
  }
}

/** Makes `md` link bare addresses the GFM way (see above). `passOver: false` reads every candidate, as linkify-it does (for the tests). */
export function linkBareAddresses(md: MarkdownIt, options: { passOver?: boolean } = {}): void {
  const linkify: Linkify = md.linkify;
  const sources = (self: Linkify) => self.re as unknown as Sources;
  // Each runs on the rest of the text from its place (a slice, which V8 makes without a copy).
  const http = fromSources((s) => new RegExp(`^\\/\\/${s.src_auth}${s.src_host_port_strict}${s.src_path}`, 'i'));
  const address = fromSources((s) => new RegExp(`^${s.src_auth}${s.src_host_port_strict}${s.src_path}`, 'i'));
  // A link without its scheme: never a single-level host (`//test` in a code comment).
  const noScheme = fromSources((s) => new RegExp(`^${s.src_auth}(?:localhost|(?:(?:${s.src_domain})\\.)+${s.src_domain_root})${s.src_port}${s.src_host_terminator}${s.src_path}`, 'i'));
  const mailto = fromSources((s) => new RegExp(`^${s.src_email_name}@${s.src_host_strict}`, 'i'));
  const emails = fromSources((s) => new RegExp(s.email_fuzzy_global.source, s.email_fuzzy_global.flags));
  const matched = (expression: RegExp, text: string, at: number) => expression.exec(text.slice(at))?.[0].length ?? 0;

  const scan = new KeptLinks((self) => emails(sources(self)));
  /** `validate`, passing over what match() drops; `schema` is the length of the schema before `pos`. */
  const passing = (schema: (text: string, pos: number) => number, validate: Validate): Validate =>
    options.passOver === false
      ? validate
      : (text, pos, self) => {
          if (scan.drops(text, pos - schema(text, pos), self)) return 0;
          const length = validate(text, pos, self);
          if (length > 0) scan.kept(pos + length);
          return length;
        };

  linkify.set({ fuzzyLink: false, fuzzyEmail: true });
  // `https:` and `ftp:` are linkify-it's aliases of `http:`: they take this validator too.
  const schemeLength = (text: string, pos: number) => (/^https:$/i.test(text.slice(Math.max(0, pos - 6), pos)) ? 6 : /^http:$/i.test(text.slice(Math.max(0, pos - 5), pos)) ? 5 : 4);
  linkify.add('http:', { validate: passing(schemeLength, (text, pos, self) => matched(http(sources(self)), text, pos)) });
  linkify.add('//', {
    validate: passing(
      () => 2,
      (text, pos, self) => {
        // Not `://` or `///`: an error in a scheme's name.
        if (pos >= 3 && (text[pos - 3] === ':' || text[pos - 3] === '/')) return 0;
        return matched(noScheme(sources(self)), text, pos);
      },
    ),
  });
  linkify.add('mailto:', { validate: passing(() => 7, (text, pos, self) => matched(mailto(sources(self)), text, pos)) });
  // GFM's www autolink: what follows `www.` is read as the host and path of `http://www.…`.
  linkify.add('www.', {
    validate: passing(
      () => 4,
      // The host starts with the `www.` itself, as in `http://www.…` (not a copy of the text after `//www.`: one per candidate).
      (text, pos, self) => Math.max(0, matched(address(sources(self)), text, pos - 4) - 'www.'.length),
    ),
    normalize: (match) => {
      match.url = `http://${match.url}`;
    },
  });
  const pretest = linkify.pretest.bind(linkify);
  const test = linkify.test.bind(linkify);
  linkify.pretest = (text: string) => MAY_HOLD_A_LINK.test(text) && pretest(text);
  linkify.test = (text: string) => MAY_HOLD_A_LINK.test(text) && test(text);
}
