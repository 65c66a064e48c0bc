/**
 * The pause before every cold run of `pnpm bench reader` and `pnpm bench reader-browser`:
 * `SETTLE=ms` (default 300), so the previous run's teardown (a process exiting, a browser
 * context closing, the kernel reclaiming its memory) is over before the clock starts, for every
 * case and for the native tools alike. `SETTLE=0` starts at once.
 */
export const SETTLE = Number(process.env.SETTLE ?? 300)

/** Blocks for {@link SETTLE} ms (before spawning a process synchronously). */
export function pause(): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SETTLE)
}

/** Waits {@link SETTLE} ms without blocking (a page is loading meanwhile). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, SETTLE))
}
