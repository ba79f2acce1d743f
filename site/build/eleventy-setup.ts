// Eleventy configuration: thin on purpose. The vault arrives as global data from
// our own long-lived model (site/build/), not as input files; templates live in
// site/templates. Eleventy reads it from a file (`configPath`, so that
// `markdownTemplateEngine: false` holds: a note containing `{{` is never run through a
// template engine); that file (eleventy-config.ts) calls this one, handed over by the
// runner, so the render state the templates read is the very module the runner fills,
// from source, from dist/ and from the one-file bundle alike.
import rss from '@11ty/eleventy-plugin-rss';
import { renderState } from './render-state.ts';
import { filters } from './filters.ts';
import { compileNunjucks } from './nunjucks-engine.ts';

export interface EleventyConfig {
  addPlugin(plugin: unknown): void;
  addExtension(key: string, options: Record<string, unknown>): void;
  addGlobalData(name: string, data: () => unknown): void;
  addFilter(name: string, filter: (...args: never[]) => unknown): void;
  setQuietMode(quiet: boolean): void;
  setUseGitIgnore(use: boolean): void;
  ignores: Set<string>;
}

export function configureEleventy(eleventyConfig: EleventyConfig) {
  eleventyConfig.addPlugin(rss);
  // Nunjucks compiled once per template (Eleventy 3.1 recompiles it for every page).
  eleventyConfig.addExtension('njk', { key: 'njk', compileOptions: { cache: true }, compile: compileNunjucks });
  // Frozen, so pagination hands the templates the object itself: an unfrozen one reaches them
  // through Eleventy's ProxyWrap, a new Proxy (and a debug call) at every lookup under
  // `vault` (`s.strings.words`), about 4% of a 10,000-note build's CPU.
  eleventyConfig.addGlobalData('vault', () => Object.freeze({ ...renderState.current }));
  for (const [name, filter] of Object.entries(filters)) eleventyConfig.addFilter(name, filter);
  eleventyConfig.setQuietMode(true);
  // Installed as a package the templates live under node_modules/, which Eleventy skips by
  // default (and a .gitignore in the working directory may name it): read them all.
  eleventyConfig.ignores.delete('**/node_modules/**');
  eleventyConfig.setUseGitIgnore(false);
  return {
    templateFormats: ['njk'],
    markdownTemplateEngine: false,
    htmlTemplateEngine: 'njk',
    // The input (site/templates) and output folders are given by the build driver.
  };
}
