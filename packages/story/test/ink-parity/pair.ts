/**
 * A parity pair on disk: an ink story and the spkg story written to mean the same, with the
 * harness options of the `.sty`'s header. Layouts (README.md, "Pairs"):
 * - `<dir>/<name>.ink` + `<dir>/<name>.sty`: a flat story of one part;
 * - `<dir>/<name>/`: `story.ink`, one or more `.sty` parts (sorted by file name, the first is the
 *   entry) and any `.xty` modules. One part: a flat story (modules at the root); several: a packaged
 *   one (parts under `story/`, modules under `extensions/`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** What a `// parity: key=value ...` header line may set. */
export interface PairOptions {
  /** Choices along one path before the harness stops exploring it. */
  depth: number
  /** Paths (leaves of the choice tree) explored per seed before stopping. */
  paths: number
  /**
   * `seeds=N`: compare the sets of transcripts over seeds 0..N-1 instead of path by path (the two
   * engines' random generators differ, so only the possible outcomes can match).
   */
  seeds?: number
  /** `lang=1.1`: the story language the `.sty` is written in (passed to checkStory; see README.md). */
  lang?: string
}

export const DEFAULT_OPTIONS: PairOptions = { depth: 6, paths: 500 }

export interface Pair {
  name: string
  ink: string
  /** Parts by archive path, in play order (the first is the entry part). */
  parts: Record<string, string>
  /** Modules by archive path. */
  modules: Record<string, string>
  /** A flat story (one part and no manifest): modules sit at the root. */
  flat: boolean
  options: PairOptions
}

const HEADER = /^\/\/\s*parity:(.*)$/

/** The options of every `// parity:` line among the leading comment lines of `sty`. */
export function readOptions(sty: string): PairOptions {
  const options: PairOptions = { ...DEFAULT_OPTIONS }
  for (const line of sty.split(/\r\n|\r|\n/)) {
    if (!line.startsWith('//')) break
    const header = HEADER.exec(line)
    if (!header) continue
    for (const setting of header[1]!.trim().split(/\s+/).filter(Boolean)) {
      const [key, value = ''] = setting.split('=', 2) as [string, string?]
      const count = Number(value)
      if (key === 'lang' && /^\d+\.\d+$/.test(value)) options.lang = value
      else if (
        (key === 'depth' || key === 'paths' || key === 'seeds') &&
        Number.isInteger(count) &&
        count > 0
      )
        options[key] = count
      else throw new Error(`parity header: cannot read '${setting}' (depth=N paths=N seeds=N lang=X.Y)`)
    }
  }
  return options
}

/** The names of the pairs in `dir`: `x` for `x.ink` + `x.sty`, or a folder `x/`; sorted. */
export function listPairs(dir: string): string[] {
  const names = new Set<string>()
  for (const entry of readdirSync(dir)) {
    if (statSync(join(dir, entry)).isDirectory()) names.add(entry)
    else if (entry.endsWith('.ink') || entry.endsWith('.sty')) names.add(entry.replace(/\.(ink|sty)$/, ''))
  }
  return [...names].sort()
}

export function readPair(dir: string, name: string): Pair {
  const folder = join(dir, name)
  if (!existsSync(folder)) {
    const sty = read(join(dir, `${name}.sty`))
    return {
      name,
      ink: read(join(dir, `${name}.ink`)),
      parts: { [`${name}.sty`]: sty },
      modules: {},
      flat: true,
      options: readOptions(sty),
    }
  }
  const files = readdirSync(folder).sort()
  const styFiles = files.filter((f) => f.endsWith('.sty'))
  if (styFiles.length === 0) throw new Error(`pair ${name}: no .sty file in ${folder}`)
  const flat = styFiles.length === 1
  const parts: Record<string, string> = {}
  for (const f of styFiles) parts[flat ? f : `story/${f}`] = read(join(folder, f))
  const modules: Record<string, string> = {}
  for (const f of files.filter((f) => f.endsWith('.xty')))
    modules[flat ? f : `extensions/${f}`] = read(join(folder, f))
  return {
    name,
    ink: read(join(folder, 'story.ink')),
    parts,
    modules,
    flat,
    options: readOptions(Object.values(parts)[0]!),
  }
}

function read(path: string): string {
  if (!existsSync(path)) throw new Error(`parity pair: ${path} is missing`)
  return readFileSync(path, 'utf8')
}
