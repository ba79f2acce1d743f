// The file Eleventy loads as its configuration (`configPath`). It imports nothing of the
// build: the configuration is site/build/eleventy-setup.ts, handed over by the runner through
// a global. Bundled (dist/bundle/), the build's code is one module graph that this file,
// imported by path, would otherwise load a second copy of, with a render state of its own
// that no one fills.
import { takeEleventySetup } from './eleventy-handoff.ts';

export default function (eleventyConfig: unknown) {
  return takeEleventySetup()(eleventyConfig);
}
