// A published note or tag whose name holds ' & " # ? % is listed, and its
// page and its topic page answer 200 (links from the site's own pages are followed).
import { beforeAll, describe, expect, it } from 'vitest';
import { waitFor, serverForFile } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

const NAMES = ["Tom's & Jerry", 'Say "hi"', 'Sharp # note', 'Why? Because', '100% sure', "Mix 'n' & \"all\" # ? %"];
const TAGS = ["tom's", 'a&b', 'q"uote', 'per%cent', 'why?'];

const server = serverForFile();
beforeAll(async () => {
  const files: Record<string, string> = {};
  NAMES.forEach((name, i) => {
    files[`Odd/${name}.md`] = `---\npublish: true\ntitle: ${JSON.stringify(name)}\ndate: 2024-01-0${i + 1}\ntags: ${JSON.stringify(TAGS)}\n---\nBody of ${name}.\n`;
  });
  await writeFiles(server.vault, files);
  await waitFor(async () => {
    const home = await (await fetch(server.url + '/')).text();
    return NAMES.every((n) => home.includes(n.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')) || home.includes(n.replace(/&/g, '&amp;').replace(/"/g, '&quot;')));
  }, 30_000, 200);
});

/** Every href on a page, resolved the way a browser resolves it (entities decoded). */
async function hrefs(route: string): Promise<string[]> {
  const html = await (await fetch(server.url + route)).text();
  return [...html.matchAll(/href="([^"]*)"/g)].map((m) =>
    m[1]!.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&#x27;/g, "'"),
  );
}

describe('odd characters in names', () => {
  it('every note is listed on the home page and its link answers 200 with the article', async () => {
    const links = await hrefs('/');
    for (const name of NAMES) {
      const link = links.find((h) => decodeURIComponent(h.replace(/^https?:\/\/[^/]+/, '')) === `/Odd/${name.replace(/\s/g, '-')}`);
      expect({ name, link: link ?? null }).toEqual({ name, link: expect.any(String) });
      const res = await fetch(new URL(link!, server.url));
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
      expect(await res.text()).toContain('Body of');
    }
  });

  it('every tag has a topic page that answers 200 and lists the notes', async () => {
    const links = await hrefs(`/Odd/${encodeURIComponent(NAMES[0]!.replace(/\s/g, '-'))}`);
    for (const tag of TAGS) {
      const link = links.find((h) => /\/topic\//.test(h) && decodeURIComponent(h.replace(/^.*\/topic\//, '')).toLowerCase() === tag.toLowerCase());
      expect({ tag, link: link ?? null }).toEqual({ tag, link: expect.any(String) });
      const res = await fetch(new URL(link!, server.url));
      expect({ tag, status: res.status }).toEqual({ tag, status: 200 });
      expect(await res.text()).toContain('Body of');
    }
  });

  it('the addresses typed by hand (percent-encoded) answer 200 too', async () => {
    for (const name of NAMES) {
      const res = await fetch(`${server.url}/Odd/${encodeURIComponent(name.replace(/\s/g, '-'))}`);
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
    }
  });
});
