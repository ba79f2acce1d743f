// How the runner hands Eleventy's configuration to the file Eleventy loads by path
// (site/build/eleventy-config.ts): a global keyed by a registered symbol, the same in
// every copy of this module.
const SETUP = Symbol.for('vault-service.eleventy-setup');

type Setup = (eleventyConfig: unknown) => unknown;

export function handOverEleventySetup(setup: Setup): void {
  (globalThis as Record<symbol, unknown>)[SETUP] = setup;
}

export function takeEleventySetup(): Setup {
  const setup = (globalThis as Record<symbol, unknown>)[SETUP];
  if (typeof setup !== 'function') throw new Error('Eleventy was started without the build (site/build/eleventy-runner.ts)');
  return setup as Setup;
}
