/**
 * Prints a random-walk report: readable text, or one JSON document with `--format json`.
 */
import type { Diagnostic } from '@spkg/manifest'
import type { CliIO } from '../cli-types'
import { formatDiagnosticLine, printable, useColor, writeJson } from '../report'
import type { RandomWalkReport, WalkEnding } from './random-walk'
import { diagnosticToJson } from './render-event'

/**
 * Writes `report` in `format`; `target` is the played path, for the replay command line. `found`
 * are the findings reported before the walks (`staticDiagnostics` in JSON, which stays one
 * document; on standard error in text).
 */
export function writeWalkReport(
  io: CliIO,
  format: 'text' | 'json',
  report: RandomWalkReport,
  target: string,
  found: readonly Diagnostic[] = [],
): void {
  const replay = (seed: number, choose: readonly string[]) =>
    `spkg play ${target} --seed ${seed}${choose.length ? ` --choose '${choose.join(',')}'` : ''}`
  if (format === 'json') {
    writeJson(io, {
      walks: report.walks,
      seed: report.seed,
      endings: report.endings,
      unfinished: report.unfinished,
      neverOffered: report.neverOffered,
      fallbacksNeverTaken: report.fallbacksNeverTaken,
      sectionsNeverReached: report.sectionsNeverReached,
      staticDiagnostics: found.map(diagnosticToJson),
      diagnostics: report.diagnostics.map((d) => ({
        ...diagnosticToJson(d.diagnostic),
        walks: d.walks,
        seed: d.seed,
      })),
      longest: report.longest && {
        ...report.longest,
        command: replay(report.longest.seed, report.longest.choose),
      },
    })
    return
  }
  const color = useColor(io)
  const errColor = useColor(io, 'stderr')
  for (const d of found) io.stderr.write(`${formatDiagnosticLine(d, errColor)}\n`)
  const out: string[] = []
  const finished = report.walks - report.unfinished.length
  out.push(`random walk: ${report.walks} playthroughs from seed ${report.seed}; ${finished} reached an end`)
  // One line per ending (per `-> END` reached); the ways into them are listed apart, below.
  const place = (e: WalkEnding) =>
    e.at.length ? e.at.map((a) => `${e.part}:${a.line}:${a.column}`).join(' or ') : `${e.part} (its end)`
  const option = (e: WalkEnding, after: { key: string; option: string }) =>
    `option ${after.option} of ${after.key.startsWith(`${e.part}:`) ? after.key.slice(e.part.length + 1) : after.key}`
  out.push('', `endings reached (${report.endings.length}):`)
  for (const e of report.endings)
    out.push(`  ${String(e.count).padStart(6)}  ${printable(`${place(e)} in #${e.section}  "${e.text}"`)}`)
  const paths = report.endings.reduce((n, e) => n + e.paths.length, 0)
  if (paths > report.endings.length) {
    out.push('', `paths into the endings (${paths}, by the option chosen last before the end):`)
    for (const e of report.endings)
      for (const p of e.paths)
        out.push(
          `  ${String(p.count).padStart(6)}  ${printable(`${place(e)}  ${p.after ? `after ${option(e, p.after)}` : 'with no option chosen in its section'}`)}`,
        )
  }
  if (report.unfinished.length) {
    out.push('', `unfinished walks (${report.unfinished.length}, stopped by --max-choices or a loop):`)
    for (const u of report.unfinished.slice(0, 10))
      out.push(`  seed ${u.seed}: ${u.choices} choices (${u.reason})`)
    if (report.unfinished.length > 10) out.push(`  … and ${report.unfinished.length - 10} more`)
  }
  out.push('', `options never offered (${report.neverOffered.length}):`)
  for (const o of report.neverOffered)
    out.push(`  ${o.path}:${o.line}:${o.column}  [${o.key}] ${o.id} "${o.text}"`)
  if (report.fallbacksNeverTaken.length) {
    out.push('', `fallbacks never taken (${report.fallbacksNeverTaken.length}):`)
    for (const o of report.fallbacksNeverTaken)
      out.push(`  ${o.path}:${o.line}:${o.column}  [${o.key}] ${o.id}`)
  }
  if (report.sectionsNeverReached.length) {
    out.push('', `sections never reached (${report.sectionsNeverReached.length}):`)
    for (const sec of report.sectionsNeverReached)
      out.push(`  ${sec.path}:${sec.line}:${sec.column}  #${sec.id}${sec.text ? ` "${sec.text}"` : ''}`)
  }
  out.push('', `runtime diagnostics (${report.diagnostics.length}):`)
  for (const d of report.diagnostics)
    out.push(`  ${formatDiagnosticLine(d.diagnostic, color)}  (${d.walks} walks; first seed ${d.seed})`)
  if (report.longest) {
    out.push(
      '',
      `longest path: ${report.longest.choices} choices, ${report.longest.blocks} blocks (seed ${report.longest.seed})`,
      `  ${replay(report.longest.seed, report.longest.choose)}`,
    )
  }
  io.stdout.write(`${out.join('\n')}\n`)
}
