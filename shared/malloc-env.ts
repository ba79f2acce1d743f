// glibc's malloc raises its mmap threshold to the size of the largest block freed so far
// (up to 32 MB). In the server, after the first scrypt (16 MB: the admin password at start,
// each sign-in) every later block up to that size comes from an arena that keeps it once
// freed: the server grew by 30-60 MB over its first sign-ins and saves, one 16 MB arena per
// libuv thread that hashed a password (issue 12's memory target). `npm start` fixes the
// threshold for the server (glibc reads it at process start only; other C libraries ignore it).
//
// The build process runs with glibc's own behaviour: it allocates and frees large blocks all
// the time (pages, messages, index files), and a fixed threshold, which also fixes when the
// heap is trimmed, made it slower (30,000 notes: first build 14.5-15.6 s against 12.8-13.5 s,
// edit-to-live median 95-112 ms against 68-69 ms) for about 50 MB.
const THRESHOLD = 'MALLOC_MMAP_THRESHOLD_';

/** The environment for the build process: the server's, without its malloc threshold. */
export function builderEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { [THRESHOLD]: _threshold, ...rest } = env;
  return rest;
}
