// glibc's malloc gives each thread that allocates its own arena, and raises its mmap
// threshold to the largest block freed so far (up to 32 MB). In the server each scrypt
// (16 MB: the admin password at start, every sign-in) runs on a libuv thread: that thread's
// arena then keeps 16 MB, and every later block up to that size is kept too. The server
// grew by 30-60 MB over its first sign-ins and saves (the memory target).
//
// One arena for the whole process (MALLOC_ARENA_MAX=1) keeps one such block, reused by the
// next. Measured at 10,000 notes, server and builder through start and 25 edits (a script
// doing what the blog bench's edit phase does): peak 378-388 MB, edit-to-live median
// 70-96 ms; glibc's defaults 422-428 MB, 82-92 ms. A fixed MALLOC_MMAP_THRESHOLD_ (131072)
// also saved the memory (384-396 MB) but slowed every edit (median 83-113 ms) and, in the
// build process, the first build at 30,000 notes (14.5-15.6 s against 12.8-13.5 s). With one
// arena at 30,000 notes: 775 MB against 822, first build and edits within noise.
//
// glibc reads it when a process starts: `npm start` sets it for the server, the server sets
// it for its build process. Other C libraries ignore it; an admin's own value wins.
const TUNING = { MALLOC_ARENA_MAX: '1' } as const;

/** The environment for the build process: the server's, with the tuning unless it chose otherwise. */
export function builderEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...TUNING, ...env };
}
