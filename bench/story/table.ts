/**
 * The Markdown rows both stories of `pnpm bench story` print: one engine's figure against the
 * other's, and spkg's advantage.
 */
import type { EngineFigures } from './ink-side'

/** A number as the tables print it, with `d` decimals. */
export const f = (n: number, d = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d })

/** A table row maker: spkg (`n/a` when not measured), ink and spkg's advantage (ink/spkg for times and sizes, spkg/ink for rates). */
export function rowMaker(s: EngineFigures | undefined, ink: EngineFigures) {
  return (label: string, get: (e: EngineFigures) => number, d: number, better: 'higher' | 'lower') => {
    const a = s ? get(s) : undefined
    const b = get(ink)
    const ratio = a === undefined ? '' : `${(better === 'higher' ? a / b : b / a).toFixed(2)}x`
    return `| ${label} | ${a === undefined ? 'n/a' : f(a, d)} | ${f(b, d)} | ${ratio} |`
  }
}

/** The rows both stories print, in order: load, speed, the state after the timed walk, a typical state. */
export function engineRows(row: ReturnType<typeof rowMaker>): string {
  return [
    row('compile + load (ms)', (e) => e.compileMs + e.loadMs, 1, 'lower'),
    row('blocks per second', (e) => e.blocksPerSecond, 0, 'higher'),
    row('choices per second', (e) => e.choicesPerSecond, 0, 'higher'),
    row('state after 75,000 choices (KiB)', (e) => e.saveBytes / 1024, 1, 'lower'),
    row('save state after 75,000 choices (ms)', (e) => e.saveMs, 3, 'lower'),
    row('load state after 75,000 choices (ms)', (e) => e.loadStateMs, 3, 'lower'),
    row('typical state, 300 choices (KiB)', (e) => e.typicalBytes / 1024, 1, 'lower'),
  ].join('\n')
}
