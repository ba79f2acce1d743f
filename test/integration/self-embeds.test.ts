// `![[#Part]]` embeds a section of the note it is written in, as Obsidian shows it: a TTRPG
// vault's tabbed character sheets are callouts of `![[#General|no-h clean]]`, and the page
// showed a link labelled "no-h clean" for each. The section's own links into its note lead
// to the note's page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { log } from '../../shared/log.ts';
import { buildVault, type BuiltVault } from '../helpers/site-build.ts';
import { cleanupTempDirs } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);
log.setQuiet(true);

let built: BuiltVault;

beforeAll(async () => {
  built = await buildVault('vs-self-embed-', {
    'Sheet.md': '---\npublish: true\n---\nIntro.\n\n> [!tabs]\n> ![[#General|no-h clean]]\n\nMISSING ![[#Nowhere]] END\n\n## General\n\nGENERAL-BODY with [[#Stats]].\n\n## Stats\n\nSTATS-BODY\n',
  });
});

describe('a note embedding a section of itself', () => {
  it('shows the section in place, its links into the note leading to the note’s page; a section it lacks shows nothing', async () => {
    const html = await built.body('Sheet');
    const embed = html.slice(html.indexOf('<div class="s-embed markdown-embed" data-embed="#General">'));
    expect(embed.indexOf('GENERAL-BODY'), html).toBeGreaterThan(0);
    expect(embed.slice(0, embed.indexOf('</div>'))).toContain('<a class="s-wikilink internal-link" href="/Sheet#stats">Stats</a>');
    expect(html).not.toContain('no-h clean');
    // The section shows twice: in the callout, and in its place on the page; STATS only in its place.
    expect(html.match(/GENERAL-BODY/g)).toHaveLength(2);
    expect(html.match(/STATS-BODY/g)).toHaveLength(1);
    expect(html).toContain('<p>MISSING</p>\n<p>END</p>');
  });
});
