/**
 * Builds BENCHMARKS.md (`pnpm benchmarks:md`): a reference page with one table per benchmark, the
 * target, the current figure and its ratio, the machine, the date and the commit, and the command
 * that re-measures it. Every folder of bench/ with an `index.ts` is a benchmark (`pnpm bench <name>`);
 * its results file (`RESULTS.md`, else `README.md`) holds the method, the details of the latest run,
 * and a section the page is built from:
 *
 * ```md
 * ## Current
 *
 * Method: best cold open of three packages in fresh Node processes, against unzip + sha256sum
 * Machine: AMD EPYC, 2 cores shared, Node 20.20; load 0.4
 * Date: 2026-11-26
 * Commit: 4c87893
 *
 * | Measure | Target | Current | Ratio |
 * |---|---|---|---|
 * | open 30 MB, Node entry, best cold | within 1.5× the floor | 40.7 ms (floor 34.0) | 1.20× |
 * ```
 *
 * The table may add `Machine`, `Date` or `Commit` columns for a row measured on another run. The
 * page gives each benchmark one line of prose: its `Method:` line, else the results file's title.
 * The section holds nothing else: notes on the run go in a section of their own in the results
 * file, and how the figures got where they are goes in the bench's `HISTORY.md` (and in git).
 * `tools/benchmarks-md.test.ts` fails when a benchmark has no valid `## Current` section, when the
 * section holds other prose, or when BENCHMARKS.md is not what this script writes.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface CurrentRow {
  readonly measure: string
  readonly target: string
  readonly current: string
  readonly ratio: string
  readonly machine: string
  readonly date: string
  readonly commit: string
}

export interface BenchSummary {
  readonly name: string
  readonly title: string
  readonly file: string
  readonly history: string | undefined
  readonly rows: readonly CurrentRow[]
  /** One line: how the benchmark measures (the `Method:` line, else the results file's title). */
  readonly method: string
  readonly problem?: string
}

const REQUIRED_COLUMNS = ['measure', 'target', 'current', 'ratio'] as const
const FIELDS = ['machine', 'date', 'commit'] as const

/** Cells of a Markdown table row (`| a | b |`), trimmed; backslash-escaped pipes stay in the cell. */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim())
}

/**
 * Reads the `## Current` section of a results file. Throws an Error naming `file` and what is
 * wrong when the section, a field or a column is absent, the table has no row, or the section holds
 * prose besides its `Method:`, `Machine:`, `Date:` and `Commit:` lines and the table.
 */
export function parseCurrent(markdown: string, file: string): { rows: CurrentRow[]; method?: string } {
  const lines = markdown.split('\n')
  const start = lines.findIndex((l) => /^## Current\s*$/.test(l))
  if (start < 0) throw new Error(`${file}: no "## Current" section (see tools/benchmarks-md.ts for its form)`)
  let end = lines.findIndex((l, i) => i > start && /^#{1,2} /.test(l))
  if (end < 0) end = lines.length
  const body = lines.slice(start + 1, end)
  const defaults: Record<string, string> = {}
  for (const line of body) {
    const m = /^(Method|Machine|Date|Commit):\s*(.+?)\s*$/.exec(line)
    if (m) defaults[(m[1] as string).toLowerCase()] = m[2] as string
  }
  const prose = body.find(
    (l) => l.trim() !== '' && !l.trim().startsWith('|') && !/^(Method|Machine|Date|Commit):/.test(l),
  )
  if (prose !== undefined)
    throw new Error(
      `${file}: "## Current" holds prose ("${prose.slice(0, 40)}..."): give it a section of its own, or move it to HISTORY.md`,
    )
  const tableStart = body.findIndex((l) => l.trim().startsWith('|'))
  if (tableStart < 0) throw new Error(`${file}: "## Current" has no table`)
  let tableEnd = tableStart
  while (tableEnd < body.length && (body[tableEnd] as string).trim().startsWith('|')) tableEnd++
  const [header = '', , ...rowLines] = body.slice(tableStart, tableEnd)
  const columns = cells(header).map((c) => c.toLowerCase())
  for (const c of REQUIRED_COLUMNS)
    if (!columns.includes(c)) throw new Error(`${file}: the "## Current" table has no "${c}" column`)
  if (rowLines.length === 0) throw new Error(`${file}: the "## Current" table has no row`)
  const rows = rowLines.map((line, i) => {
    const values = cells(line)
    const get = (c: string) => {
      const at = columns.indexOf(c)
      const value = at >= 0 ? values[at] : undefined
      return value !== undefined && value !== '' ? value : defaults[c]
    }
    const row: Record<string, string> = {}
    for (const c of [...REQUIRED_COLUMNS, ...FIELDS]) {
      const value = get(c)
      if (value === undefined)
        throw new Error(`${file}: row ${i + 1} of "## Current" has no ${c} (a column, or a "${c}:" line)`)
      row[c] = value
    }
    return row as unknown as CurrentRow
  })
  return defaults.method === undefined ? { rows } : { rows, method: defaults.method }
}

/** The benchmarks under `root/bench`: folders with an `index.ts`, in name order. */
export function benchNames(root: string): string[] {
  const bench = join(root, 'bench')
  return readdirSync(bench, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(bench, d.name, 'index.ts')))
    .map((d) => d.name)
    .sort()
}

/**
 * The summary of one benchmark. A benchmark whose results file is missing or has no valid
 * `## Current` section gets no rows and `problem` says why (the page shows it; the test fails).
 */
export function readSummary(root: string, name: string): BenchSummary {
  const file =
    ['RESULTS.md', 'README.md'].map((f) => `bench/${name}/${f}`).find((f) => existsSync(join(root, f))) ??
    `bench/${name}/RESULTS.md`
  const history = existsSync(join(root, `bench/${name}/HISTORY.md`)) ? `bench/${name}/HISTORY.md` : undefined
  if (!existsSync(join(root, file)))
    return { name, title: name, file, history, rows: [], method: '', problem: `${file} does not exist yet` }
  const markdown = readFileSync(join(root, file), 'utf8')
  // `# bench/reader: results` says nothing the section heading does not; `# bundle: weight of...` does
  const heading = (/^# (.+)$/m.exec(markdown)?.[1] ?? '').replace(/^(bench\/)?[\w-]+:?\s*/, '')
  const title = /^(results)?$/i.test(heading) ? '' : heading
  try {
    const { rows, method } = parseCurrent(markdown, file)
    return { name, title, file, history, rows, method: method ?? title }
  } catch (error) {
    return { name, title, file, history, rows: [], method: '', problem: (error as Error).message }
  }
}

const INTRO = `# Benchmarks

<!-- Generated by \`pnpm benchmarks:md\` (tools/benchmarks-md.ts) from the "## Current" section of each
bench/<name>/RESULTS.md; edit those, not this page. -->

The current figure of every benchmark against its target. **Ratio** is the current figure against the
target's reference (the floor, the native tool, inkjs, the bare route...) as each row says. Each
benchmark's results file has the method and the details of its latest run; how the figures got there
is in its HISTORY.md and in git. Figures come from a shared 2-core machine: read ratios measured in one run
before absolute times, and the load noted with each machine.

Re-measure one benchmark with \`pnpm bench <name>\`, then update the "## Current" section of its
results file and run \`pnpm benchmarks:md\`.
`

const escapeCell = (s: string) => s.replace(/(?<!\\)\|/g, '\\|')

export function renderBenchmarksMd(summaries: readonly BenchSummary[]): string {
  const index = [
    '| Benchmark | Re-measure | Details |',
    '|---|---|---|',
    ...summaries.map(
      (s) => `| [${s.name}](#${s.name}) | \`pnpm bench ${s.name}\` | [${s.file}](${s.file}) |`,
    ),
  ].join('\n')
  const sections = summaries.map((s) => {
    const links = [`[results](${s.file})`, ...(s.history ? [`[history](${s.history})`] : [])].join(', ')
    const table = [
      '| Measure | Target | Current | Ratio | Machine | Date | Commit |',
      '|---|---|---|---|---|---|---|',
      ...s.rows
        .map((r) =>
          [r.measure, r.target, r.current, r.ratio, r.machine, r.date, r.commit].map(escapeCell).join(' | '),
        )
        .map((r) => `| ${r} |`),
    ].join('\n')
    if (s.problem !== undefined)
      return `## ${s.name}\n\nNo current figures: ${s.problem}. Measure with \`pnpm bench ${s.name}\`.`
    const method = s.method ? `${s.method[0]?.toUpperCase()}${s.method.slice(1).replace(/\.$/, '')}. ` : ''
    return `## ${s.name}\n\n${method}Re-measure: \`pnpm bench ${s.name}\` (${links}).\n\n${table}`
  })
  return `${INTRO}\n${index}\n\n${sections.join('\n\n')}\n`
}

export function buildBenchmarksMd(root: string): string {
  return renderBenchmarksMd(benchNames(root).map((name) => readSummary(root, name)))
}

const isMain = process.argv[1] !== undefined && import.meta.filename === process.argv[1]
if (isMain) {
  const root = join(import.meta.dirname, '..')
  writeFileSync(join(root, 'BENCHMARKS.md'), buildBenchmarksMd(root))
  console.log('wrote BENCHMARKS.md')
}
