/**
 * Exploring the tree of choices of a pair with both engines and comparing the normal forms
 * (README.md): path by path, or, for a pair with `seeds=N`, as sets of possible transcripts.
 */
import { checkPair, compileInk, inkPlayer, type Player, spkgPlayer } from './engines.ts'
import type { Pair, PairOptions } from './pair.ts'

/** The seed of every walk of a pair compared path by path. */
export const PATH_SEED = 1

/** The engines' transcripts differ along `path`, first at `line` (0-based). */
export interface Mismatch {
  path: number[]
  line: number
  ink: string[]
  spkg: string[]
}

export interface Comparison {
  name: string
  /** Paths compared: leaves of the choice tree (the end, the depth cap, or a first difference). */
  paths: number
  /** Paths that stopped at the depth cap with a pause still open. */
  capped: number
  /** The path cap stopped the exploration before the tree was done. */
  truncated: boolean
  mismatches: Mismatch[]
  /** `seeds=N` pairs: the transcripts only one engine can produce. */
  onlyInk?: string[][]
  onlySpkg?: string[][]
}

const firstDifference = (a: readonly string[], b: readonly string[]): number => {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i
  return a.length === b.length ? -1 : n
}

/**
 * Walks every path of choices of `a` and `b` together, depth first in menu order: a path goes on
 * while both transcripts agree and a pause is open, up to `depth` choices; at most `paths` paths.
 */
export async function comparePaths(
  name: string,
  a: Player,
  b: Player,
  options: Pick<PairOptions, 'depth' | 'paths'>,
  seed = PATH_SEED,
): Promise<Comparison> {
  const result: Comparison = { name, paths: 0, capped: 0, truncated: false, mismatches: [] }
  const stack: number[][] = [[]]
  while (stack.length > 0) {
    if (result.paths >= options.paths) {
      result.truncated = true
      break
    }
    const path = stack.pop()!
    const [wa, wb] = [await a.walk(path, seed), await b.walk(path, seed)]
    const line = firstDifference(wa.lines, wb.lines)
    if (line !== -1) {
      const [ink, spkg] = a.engine === 'ink' ? [wa.lines, wb.lines] : [wb.lines, wa.lines]
      result.mismatches.push({ path, line, ink, spkg })
      result.paths++
    } else if (wa.menu === undefined || path.length >= options.depth) {
      result.paths++
      if (wa.menu !== undefined) result.capped++
    } else for (let k = wa.menu - 1; k >= 0; k--) stack.push([...path, k])
  }
  return result
}

/** Every transcript one engine can produce over `seeds` seeds (leaves of each seed's tree), and the counts. */
export async function outcomes(
  player: Player,
  options: PairOptions,
): Promise<{ transcripts: Map<string, string[]>; paths: number; capped: number; truncated: boolean }> {
  const transcripts = new Map<string, string[]>()
  let paths = 0
  let capped = 0
  let truncated = false
  for (let seed = 0; seed < (options.seeds ?? 1); seed++) {
    const stack: number[][] = [[]]
    let seedPaths = 0
    while (stack.length > 0) {
      if (seedPaths >= options.paths) {
        truncated = true
        break
      }
      const path = stack.pop()!
      const walk = await player.walk(path, seed)
      if (walk.menu === undefined || path.length >= options.depth) {
        seedPaths++
        if (walk.menu !== undefined) capped++
        transcripts.set(walk.lines.join('\n'), walk.lines)
      } else for (let k = walk.menu - 1; k >= 0; k--) stack.push([...path, k])
    }
    paths += seedPaths
  }
  return { transcripts, paths, capped, truncated }
}

/** Compares the sets of transcripts the two engines can produce over the pair's seeds. */
export async function compareOutcomes(
  name: string,
  ink: Player,
  spkg: Player,
  options: PairOptions,
): Promise<Comparison> {
  const [a, b] = [await outcomes(ink, options), await outcomes(spkg, options)]
  const only = (x: Map<string, string[]>, y: Map<string, string[]>) =>
    [...x].filter(([k]) => !y.has(k)).map(([, lines]) => lines)
  return {
    name,
    paths: a.paths + b.paths,
    capped: a.capped + b.capped,
    truncated: a.truncated || b.truncated,
    mismatches: [],
    onlyInk: only(a.transcripts, b.transcripts),
    onlySpkg: only(b.transcripts, a.transcripts),
  }
}

export interface PairReport {
  inkErrors: string[]
  inkWarnings: string[]
  styDiagnostics: string[]
  comparison: Comparison
}

/** Compiles, checks and compares one pair. */
export async function runPair(pair: Pair): Promise<PairReport> {
  const ink = compileInk(pair.ink)
  const styDiagnostics = checkPair(pair)
  const report = { inkErrors: ink.errors, inkWarnings: ink.warnings, styDiagnostics }
  if (!ink.story) throw new Error(`pair ${pair.name}: the ink does not compile:\n${ink.errors.join('\n')}`)
  const [a, b] = [inkPlayer(ink.story), spkgPlayer(pair)]
  const comparison =
    pair.options.seeds === undefined
      ? await comparePaths(pair.name, a, b, pair.options)
      : await compareOutcomes(pair.name, a, b, pair.options)
  return { ...report, comparison }
}

export const differs = (c: Comparison): boolean =>
  c.mismatches.length > 0 || (c.onlyInk?.length ?? 0) > 0 || (c.onlySpkg?.length ?? 0) > 0

const numbered = (lines: readonly string[], mark: number) =>
  lines.map((l, i) => `${i === mark ? '>>' : '  '}${String(i + 1).padStart(3)}  ${l}`).join('\n')

const lineAt = (lines: readonly string[], i: number) => lines[i] ?? '(nothing: the walk stops here)'

/** A readable report of a difference: pair, path, first differing line, both transcripts. */
export function formatComparison(c: Comparison): string {
  const out: string[] = []
  for (const m of c.mismatches) {
    out.push(
      `pair '${c.name}' differs on path [${m.path.join(', ')}] (menu indices from 0) at line ${m.line + 1}:`,
      `  ink:  ${lineAt(m.ink, m.line)}`,
      `  spkg: ${lineAt(m.spkg, m.line)}`,
      '--- ink',
      numbered(m.ink, m.line),
      '--- spkg',
      numbered(m.spkg, m.line),
      '',
    )
  }
  for (const [engine, list] of [
    ['ink', c.onlyInk],
    ['spkg', c.onlySpkg],
  ] as const) {
    for (const lines of list ?? [])
      out.push(`pair '${c.name}': a transcript only ${engine} produces:`, numbered(lines, -1), '')
  }
  return out.join('\n')
}

/**
 * The difference in short, as differences/<name>.diff records it: one line per mismatching path
 * (path, first differing line, both sides), or per transcript only one engine produces.
 */
export function summarize(c: Comparison): string {
  const out = c.mismatches.map(
    (m) =>
      `[${m.path.join(',')}] line ${m.line + 1}: ink ${lineAt(m.ink, m.line)} / spkg ${lineAt(m.spkg, m.line)}`,
  )
  for (const lines of c.onlyInk ?? []) out.push(`only ink: ${lines.join(' \\ ')}`)
  for (const lines of c.onlySpkg ?? []) out.push(`only spkg: ${lines.join(' \\ ')}`)
  return out.join('\n')
}
