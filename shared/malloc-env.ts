// glibc's malloc raises its mmap threshold to the size of the largest block freed so far
// (up to 32 MB). After the first scrypt (16 MB: the admin password at start, each sign-in)
// every later block up to that size comes from an arena that keeps it once freed: the
// server grew by 30-60 MB over its first sign-ins and saves, one 16 MB arena per libuv
// thread that hashed a password (issue 12's memory target). A fixed threshold keeps large
// blocks in their own mappings, given back when freed. glibc reads it at process start
// only: `npm start` sets it for the server, and the server sets it for its build process.
// Other C libraries ignore it.
export const MALLOC_TUNING = { MALLOC_MMAP_THRESHOLD_: '131072' } as const;

/** `env` with the tuning added where the user has not chosen their own. */
export function withMallocTuning(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...MALLOC_TUNING, ...env };
}
