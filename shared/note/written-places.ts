// Every place of a text written as a link, code or not: the wikilinks (wikilinks.ts), the
// Markdown links and pictures and the reference definitions (link-address.ts), in order. No
// parser: the admin app's first screen reads lines with it; link-places.ts says which of
// them the renderer reads as links.
import { MARKDOWN_LINK, REFERENCE_DEFINITION } from '../link-address.ts';
import { writtenLinks, type WrittenLink } from '../wikilinks.ts';

/** A wikilink as written. */
export interface WikiPlace extends WrittenLink {
  kind: 'wiki';
}

/** A Markdown link or picture (`[text](address)`), or a reference definition (`[ref]: address`). */
export interface AddressPlace {
  kind: 'markdown' | 'definition';
  at: number;
  length: number;
  bang: string;
  /** The link's text, or the definition's label. */
  label: string;
  /** The address as written, without the <> around it. */
  address: string;
  addressAt: number;
  /** Written in <> (may hold spaces). */
  angle: boolean;
}

export type LinkPlace = WikiPlace | AddressPlace;

/** Every place of `text` written as a link, in order, code or not (link-places.ts readAsLinks tells). */
export function writtenPlaces(text: string): LinkPlace[] {
  const places: LinkPlace[] = [];
  if (text.includes('[[')) for (const w of writtenLinks(text)) places.push({ kind: 'wiki', ...w });
  const wikis = places.length;
  let nested = false;
  if (text.includes('](')) {
    let k = 0;
    for (const m of text.matchAll(MARKDOWN_LINK)) {
      const at = m.index!;
      // A Markdown link inside a wikilink's display text is the wikilink's.
      while (k < wikis && places[k]!.at + places[k]!.length <= at) k++;
      if (k < wikis && places[k]!.at < at + m[0].length) continue;
      places.push(markdownPlace(m, at));
      // The pictures in a link's text (`[![alt](pic.png)](Note.md)`) are links too.
      if (m[2]!.includes('](')) {
        const labelAt = at + m[1]!.length + 1;
        for (const inner of m[2]!.matchAll(MARKDOWN_LINK)) places.push(markdownPlace(inner, labelAt + inner.index!));
        nested = true;
      }
    }
  }
  if (text.includes(']:')) {
    for (const m of text.matchAll(REFERENCE_DEFINITION)) {
      const [whole, before, label, angled, bare] = m as unknown as [string, string, string, string | undefined, string | undefined];
      const angle = angled !== undefined;
      const address = angle ? angled : bare!;
      const end = m.index! + whole.length;
      places.push({ kind: 'definition', at: m.index! + before.length, length: whole.length - before.length, bang: '', label, address, addressAt: end - address.length - (angle ? 1 : 0), angle });
    }
  }
  return (wikis < places.length && wikis > 0) || nested ? places.sort((a, b) => a.at - b.at) : places;
}

function markdownPlace(m: RegExpMatchArray, at: number): AddressPlace {
  const [whole, bang, label, angled, bare] = m as unknown as [string, string, string, string | undefined, string | undefined];
  const angle = angled !== undefined;
  return { kind: 'markdown', at, length: whole.length, bang, label, address: angle ? angled : bare!, addressAt: at + bang.length + label.length + 3 + (angle ? 1 : 0), angle };
}
