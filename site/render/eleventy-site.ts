// The public site's Eleventy configuration (CONTRACT §16), as `.eleventy.js` applies it:
// the templates folder (each template paginates over the views in the global data `vault`),
// our Nunjucks environment (its filters, the includes compiled ahead, each template compiled
// once), the RSS plugin's filters, then the operator's own config function and theme. Every
// build renders through it: the builder hands it one pass's views (eleventy-runner.ts),
// `npx @11ty/eleventy` the whole vault's (eleventy-standalone.ts). Nothing here is read from
// the vault: a vault is untrusted, and a Nunjucks template can run code.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { UserConfig } from '@11ty/eleventy';
import type { Config } from '../../shared/config.ts';
import { importModule } from '../../shared/import-module.ts';
import { environment, nunjucksCompiledOnce } from './nunjucks-engine.ts';
import { TEMPLATES_DIR } from './paths.ts';
import { readOnlyViews, type RenderData } from './render-state.ts';

/** What the operator adds, from outside the vault and the data directory. */
export interface SiteExtensions {
  /** A folder whose templates and includes override ours by file name (SITE_THEME). */
  theme: string | null;
  /** A module whose default export is an Eleventy config function, run after ours (SITE_ELEVENTY_CONFIG). */
  eleventyConfig: string | null;
}

export const NO_EXTENSIONS: SiteExtensions = { theme: null, eleventyConfig: null };

/** The extensions the configuration names (SITE_THEME, SITE_ELEVENTY_CONFIG). */
export const extensionsOf = (config: Pick<Config, 'siteTheme' | 'siteEleventyConfig'>): SiteExtensions => ({ theme: config.siteTheme, eleventyConfig: config.siteEleventyConfig });

/** The key `.eleventy.js` finds a waiting builder's configuration under (eleventy-runner.ts). */
export const SITE_DRIVER = Symbol.for('vault-service.eleventy-site');

/** What `.eleventy.js` returns: our templates folder as Eleventy's input. */
export interface SiteDirectories {
  dir: { input: string; includes: string };
  templateFormats: string[];
}

export async function configureSite(config: UserConfig, vault: () => RenderData | Promise<RenderData>, extensions: SiteExtensions): Promise<SiteDirectories> {
  config.setUseGitIgnore(false);
  // Installed as a package, our templates folder is under node_modules, which Eleventy leaves out unless told.
  config.ignores.delete('**/node_modules/**');
  config.setQuietMode(true);
  const env = environment(extensions.theme);
  config.setLibrary('njk', env);
  config.addExtension('njk', nunjucksCompiledOnce(env));
  config.addPlugin((await importModule<{ default: unknown }>('@11ty/eleventy-plugin-rss')).default);
  config.addGlobalData('vault', async () => readOnlyViews(await vault()));
  if (extensions.theme) overridePageTemplates(config, extensions.theme);
  if (extensions.eleventyConfig) await runOperatorConfig(config, extensions.eleventyConfig);
  return { dir: { input: TEMPLATES_DIR, includes: '_includes' }, templateFormats: ['njk'] };
}

/** A theme's page template stands in for ours of the same name (its includes come first in the loader: nunjucks-engine.ts). */
function overridePageTemplates(config: UserConfig, theme: string): void {
  const ours = new Set(readdirSync(TEMPLATES_DIR).filter((name) => name.endsWith('.njk')));
  for (const name of readdirSync(theme)) {
    if (!ours.has(name)) continue;
    config.ignores.add(path.relative(process.cwd(), path.join(TEMPLATES_DIR, name)));
    config.addTemplate(name, readFileSync(path.join(theme, name), 'utf8'));
  }
}

async function runOperatorConfig(config: UserConfig, file: string): Promise<void> {
  if (!existsSync(file)) throw new Error(`SITE_ELEVENTY_CONFIG: ${file} does not exist`);
  const loaded = (await importModule(pathToFileURL(file).href)) as { default?: unknown };
  const configure = loaded.default;
  if (typeof configure !== 'function') throw new Error(`SITE_ELEVENTY_CONFIG: ${file} exports no config function as its default`);
  await (configure as (c: UserConfig) => unknown)(config);
}
