// Hugo over the same notes as our build, for the blog benchmark's ratio. The vault is
// copied into a content folder Hugo reads as we do: unpublished notes become drafts (Hugo
// leaves them out, as we do), `aliases` is renamed (Hugo would write a redirect page for
// each, we make none), attachments are copied, file times kept (a note without a date
// takes its file's time in both), raw HTML rendered rather than dropped.
import { promises as fs } from 'node:fs';
import path from 'node:path';

/** Copies `vault` into `content` for Hugo; returns how many notes Hugo will publish. */
export async function hugoContent(vault: string, content: string): Promise<number> {
  let published = 0;
  const copies: Promise<void>[] = [];
  for (const entry of await fs.readdir(vault, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const from = path.join(entry.parentPath, entry.name);
    const to = path.join(content, path.relative(vault, from));
    copies.push(
      (async () => {
        const stat = await fs.stat(from);
        await fs.mkdir(path.dirname(to), { recursive: true });
        if (entry.name.endsWith('.md')) {
          const text = await fs.readFile(from, 'utf8');
          const isPublished = /^publish: true$/m.test(text.slice(0, 4096));
          if (isPublished) published++;
          const front = /^---\n[\s\S]*?\n---\n/.exec(text)?.[0] ?? '';
          const converted = front.replace(/^aliases:/m, 'obsidian_aliases:').replace(/^publish: .*$/m, (line) => `${line}\ndraft: ${!isPublished}`);
          await fs.writeFile(to, converted + text.slice(front.length));
        } else await fs.copyFile(from, to);
        await fs.utimes(to, stat.atime, stat.mtime);
      })(),
    );
    if (copies.length >= 200) await Promise.all(copies.splice(0));
  }
  await Promise.all(copies);
  return published;
}

/** A Hugo site in `site` with minimal layouts over `content`; returns its arguments for one build into `out`. */
export async function hugoSite(site: string, content: string): Promise<(out: string) => string[]> {
  const layout = '<!doctype html><html><head><title>{{ .Title }}</title></head><body><h1>{{ .Title }}</h1>';
  await fs.mkdir(path.join(site, 'layouts/_default'), { recursive: true });
  await fs.writeFile(
    path.join(site, 'hugo.toml'),
    `baseURL = "https://bench.example/"\ntitle = "Bench"\ncontentDir = ${JSON.stringify(content)}\n` +
      `[frontmatter]\ndate = ["date", "publishDate", "lastmod", ":fileModTime"]\n` +
      `[markup.goldmark.renderer]\nunsafe = true\n`,
  );
  await fs.writeFile(path.join(site, 'layouts/_default/single.html'), `${layout}{{ .Content }}</body></html>\n`);
  await fs.writeFile(path.join(site, 'layouts/_default/list.html'), `${layout}<ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> {{ .Summary }}</li>{{ end }}</ul></body></html>\n`);
  await fs.writeFile(path.join(site, 'layouts/index.html'), `${layout}<ul>{{ range first 50 .Site.RegularPages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul></body></html>\n`);
  // --buildFuture: the uniform notes' dates run five hours apart from 2020, so past about
  // 10,000 notes they reach beyond today, and hugo leaves future-dated notes out by default.
  return (out) => ['--source', site, '--destination', out, '--quiet', '--buildFuture'];
}
