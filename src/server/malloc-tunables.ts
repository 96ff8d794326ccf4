/**
 * glibc's malloc settings for the web process (docs/performance.md: The web process's memory): two arenas instead
 * of one for each thread that allocates (libuv's pool running zlib, V8's compiler and GC threads),
 * and a fixed mmap threshold, so a block of 128 KB or more goes back to the system when freed and
 * the arenas' free tops are trimmed. By default glibc raises both limits after the first large
 * block it frees, and then holds tens of MB that nothing uses.
 */
export const MALLOC_TUNABLES = 'glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=131072';

/**
 * glibc reads GLIBC_TUNABLES only when a process starts: without malloc settings of its own, the
 * process replaces itself (same pid, flags and arguments) by one started with them. Call it before
 * anything else is loaded. An operator's own glibc.malloc settings are kept as they are.
 */
export function restartWithMallocTunables(): void {
  const tunables = process.env.GLIBC_TUNABLES;
  if (process.platform !== 'linux' || !process.execve || tunables?.includes('glibc.malloc.')) return;
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    GLIBC_TUNABLES: tunables ? `${tunables}:${MALLOC_TUNABLES}` : MALLOC_TUNABLES,
  });
}
