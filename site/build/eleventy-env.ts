// Imported before Eleventy itself (site/build/eleventy-runner.ts). Eleventy registers an
// ESM loader hook that re-resolves every relative import afterwards (it busts module caches
// for its watch mode, which we do not use: one instance renders from our own data). The hook
// runs on a separate loader thread: every later import in the build, and in a full build's
// partner thread, waits on it (about half a second of the partner's start).
process.env.ELEVENTY_SKIP_ESM_RESOLVER ??= '1';
