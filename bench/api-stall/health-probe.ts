/**
 * The health probe of the API benchmarks (api-stall, api-upload): `/api/health` asked every few
 * milliseconds while a load runs, and the percentiles of its latencies.
 */

/** The p-th percentile (nearest rank) of `xs`; NaN when empty. */
export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? Number.NaN
}

/** Asks `<url>/api/health` every `everyMs` until `stop` settles; latencies in ms (a timeout counts as 30,000). */
export async function probeHealth(url: string, stop: Promise<unknown>, everyMs: number): Promise<number[]> {
  const out: number[] = []
  let done = false
  void stop.finally(() => {
    done = true
  })
  const pending: Promise<void>[] = []
  while (!done) {
    const t0 = performance.now()
    pending.push(
      fetch(`${url}/api/health`, { signal: AbortSignal.timeout(30_000) })
        .then(async (r) => {
          await r.arrayBuffer()
          out.push(performance.now() - t0)
        })
        .catch(() => {
          out.push(30_000)
        }),
    )
    await new Promise((r) => setTimeout(r, everyMs))
  }
  await Promise.all(pending)
  return out
}
