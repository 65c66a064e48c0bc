/**
 * Prints a random-walk report: readable text, or one JSON document with `--format json`.
 */
import type { Diagnostic } from '@spkg/manifest'
import type { CliIO } from '../cli-types'
import { formatDiagnosticLine, printable, useColor, writeJson } from '../report'
import type { RandomWalkReport } from './random-walk'
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
  out.push('', `endings reached (${report.endings.length}):`)
  for (const e of report.endings)
    out.push(
      `  ${String(e.count).padStart(6)}  ${printable(`${e.part}#${e.section}${e.after ? `, after option ${e.after.option} of ${e.after.key.startsWith(`${e.part}:`) ? e.after.key.slice(e.part.length + 1) : e.after.key}` : ''}  "${e.text}"`)}`,
    )
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
