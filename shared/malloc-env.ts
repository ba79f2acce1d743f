// glibc's malloc gives each thread that allocates its own arena, and raises its mmap
// threshold to the largest block freed so far (up to 32 MB). In the server each scrypt
// (16 MB: the admin password at start, every sign-in) runs on a libuv thread: that thread's
// arena then keeps 16 MB, and every later block up to that size is kept too. The server
// grew by 30-60 MB over its first sign-ins and saves (the memory target).
//
// One arena for the whole process (MALLOC_ARENA_MAX=1) keeps one such block, reused by the
// next: a smaller peak, saves as fast (docs/dev/performance.md has the measurements).
//
// glibc reads it when a process starts: `npm start` sets it for the server, the server sets
// it for its build process. Other C libraries ignore it; an admin's own value wins.
const TUNING = { MALLOC_ARENA_MAX: '1' } as const;

/** The environment for the build process: the server's, with the tuning unless it chose otherwise. */
export function builderEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...TUNING, ...env };
}
