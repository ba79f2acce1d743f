// A full build of a small vault in the test's own process, as the server's builder makes it
// (no build thread unless asked, no git unless asked): what a build-level test reads pages from.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from '../../shared/config.ts';
import { SiteBuilder } from '../../site/build/site-builder.ts';
import { tempDir, writeFiles } from './tmp.ts';

export interface BuiltVault {
  vault: string;
  config: Config;
  builder: SiteBuilder;
  /** The folder holding the live site. */
  out: string;
  /** The article body of the page at `name` (`Folder/Note` for `Folder/Note.html`). */
  body(name: string): Promise<string>;
}

/**
 * Writes `files` into a fresh vault (`prepare` runs after, before the build: a git history, a
 * mode) and builds it, in the blog layout unless `env` names another.
 */
export async function buildVault(prefix: string, files: Record<string, string>, options: { useGit?: boolean; prepare?: (vault: string) => Promise<void> | void; env?: Record<string, string> } = {}): Promise<BuiltVault> {
  const root = await tempDir(prefix);
  const vault = path.join(root, 'vault');
  await writeFiles(vault, files);
  await options.prepare?.(vault);
  const data = path.join(root, 'data');
  await fs.mkdir(data, { recursive: true });
  const config = loadConfig({ VAULT: vault, SERVICE_DATA: data, PUBLIC_LAYOUT: 'blog', ...options.env }, []);
  const builder = new SiteBuilder({ config, outRoot: path.join(root, 'out'), buildThread: false, useGit: options.useGit ?? false });
  const out = (await builder.full()).dir;
  const body = async (name: string) => {
    const html = await fs.readFile(path.join(out, `${name}.html`), 'utf8');
    return html.slice(html.indexOf('s-article-body'), html.indexOf('</article>'));
  };
  return { vault, config, builder, out, body };
}
