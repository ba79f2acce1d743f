// spec D.4: the topic row every page carries holds the busiest TOPIC_ROW_MAX topics; past
// that, its last link leads to the search page, which lists every topic. A vault's 200 tags
// once made the row 17 KB of each of its pages.
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ALL_TOPICS_ANCHOR, TOPIC_ROW_MAX } from '../../site/plan/plan-outputs.ts';
import { CLI_BUILD, childEnv, PROJECT_DIR } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const pad = (k: number) => String(k).padStart(2, '0');

/** `topics` tags, tag k on every post from the k-th on: the lower k, the busier the topic. */
async function build(topics: number, language = 'en') {
  const root = await tempDir('vs-topic-row-');
  const vault = path.join(root, 'vault');
  const notes: Record<string, string> = {};
  for (let j = 0; j < topics; j++) {
    const tags = Array.from({ length: j + 1 }, (_, k) => `topic-${pad(k)}`);
    notes[`Posts/Post ${pad(j)}.md`] = `---\npublish: true\ndate: 2024-01-${pad(j + 1)}\ntags: [${tags.join(', ')}]\n---\nPost ${j}.\n`;
  }
  await writeFiles(vault, notes);
  // The interface language is a setting (settings.json in the data directory).
  await writeFiles(path.join(root, 'data'), { 'settings.json': JSON.stringify({ language }) });
  const out = path.join(root, 'site');
  const res = spawnSync(process.execPath, [...CLI_BUILD], {
    cwd: PROJECT_DIR,
    env: childEnv({ VAULT: vault, SERVICE_DATA: path.join(root, 'data'), SITE_OUT: out, SITE_URL: 'https://static.example', PUBLIC_LAYOUT: 'blog' }),
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(res.status, res.stderr).toBe(0);
  const read = (file: string) => fs.readFile(path.join(out, file), 'utf8');
  return { article: await read('Posts/Post-03.html'), search: await read('search.html') };
}

const rowOf = (html: string) => /<ul class="s-topic-list">([\s\S]*?)<\/ul>/.exec(html)![1]!;
const topicLinks = (html: string) => [...html.matchAll(/href="\/topic\/(topic-\d\d)"/g)].map((m) => m[1]);

describe('the topic row', () => {
  it('holds the busiest topics, busiest first, then a link to the search page that lists them all', async () => {
    const { article, search } = await build(TOPIC_ROW_MAX + 6);
    const row = rowOf(article);
    expect(topicLinks(row)).toEqual(Array.from({ length: TOPIC_ROW_MAX }, (_, k) => `topic-${pad(k)}`));
    // The link is the row's last item, so it is the first to fold into More.
    expect(row.trimEnd()).toMatch(new RegExp(`<li><a class="s-chip s-all-topics" href="/search#${ALL_TOPICS_ANCHOR}">All topics</a></li>$`));
    expect(search).toContain(`id="${ALL_TOPICS_ANCHOR}"`);
    const listed = /<section class="s-search-topics"[\s\S]*?<\/section>/.exec(search)![0];
    expect(topicLinks(listed)).toEqual(Array.from({ length: TOPIC_ROW_MAX + 6 }, (_, k) => `topic-${pad(k)}`));
  });

  it('holds every topic, with no such link, when they are TOPIC_ROW_MAX or fewer; the link speaks the site language', async () => {
    const { article } = await build(TOPIC_ROW_MAX);
    expect(topicLinks(rowOf(article))).toHaveLength(TOPIC_ROW_MAX);
    expect(article).not.toContain('s-all-topics');
    const arabic = await build(TOPIC_ROW_MAX + 1, 'ar');
    expect(rowOf(arabic.article)).toContain('>كل المواضيع</a></li>');
  });
});
