// Eleventy configuration: thin on purpose. The vault arrives as global data from
// our own long-lived model (site/build/), not as input files; templates live in
// site/templates. Loaded through `configPath` so `markdownTemplateEngine: false`
// holds (a note containing `{{` is never run through a template engine).
import rss from '@11ty/eleventy-plugin-rss';
import { renderState } from './site/build/render-state.ts';
import { filters } from './site/build/filters.ts';
import { compileNunjucks } from './site/build/nunjucks-engine.ts';

export default function (eleventyConfig) {
  eleventyConfig.addPlugin(rss);
  // Nunjucks compiled once per template (Eleventy 3.1 recompiles it for every page).
  eleventyConfig.addExtension('njk', { key: 'njk', compileOptions: { cache: true }, compile: compileNunjucks });
  eleventyConfig.addGlobalData('vault', () => renderState.current);
  for (const [name, filter] of Object.entries(filters)) eleventyConfig.addFilter(name, filter);
  eleventyConfig.setQuietMode(true);
  return {
    templateFormats: ['njk'],
    markdownTemplateEngine: false,
    htmlTemplateEngine: 'njk',
    // The input (site/templates) and output folders are given by the build driver.
  };
}
