/**
 * Printing diagnostics: plain text for people (coloured on a TTY), one JSON object for tools,
 * and GitHub workflow annotations for CI.
 */
import { countBySeverity, type Diagnostic, type Severity } from '@spkg/manifest'
import type { CliIO } from './cli-types'
import { UsageError } from './cli-types'
import { docsUrlOf } from './validate/docs-link'

export type OutputFormat = 'text' | 'json' | 'github'

/** Reads a `--format` value, refusing anything not in `allowed`. */
export function parseFormat<T extends string>(value: unknown, allowed: readonly T[]): T {
  const v = (value ?? allowed[0]) as T
  if (!allowed.includes(v))
    throw new UsageError(`--format must be one of ${allowed.join(', ')} (got '${String(value)}')`)
  return v
}

/** Whether to colour output written to `stream`: a TTY, unless NO_COLOR is set; FORCE_COLOR forces it. */
export function useColor(io: CliIO, stream: 'stdout' | 'stderr' = 'stdout'): boolean {
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false
  if (io.env.FORCE_COLOR !== undefined && io.env.FORCE_COLOR !== '0') return true
  return io[stream].isTTY === true
}

const COLORS: Record<Severity, string> = {
  fatal: '\x1b[1;31m',
  error: '\x1b[31m',
  warning: '\x1b[33m',
  info: '\x1b[36m',
}

/** C0 and C1 controls, DEL, line separators and bidirectional overrides. */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g
const NAMED_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/**
 * `text` safe to print on a terminal: control characters, line separators and bidirectional
 * overrides are shown as escapes (`\n`, `\x1b`, `\u202e`). Entry names and manifest fields come
 * from untrusted archives; printed raw, `\r` or an escape sequence could rewrite the line (hide a
 * "fatal") or drive the terminal.
 *
 * @example
 * printable('story/\x1b[31mred.sty') // 'story/\\x1b[31mred.sty'
 */
export function printable(text: string): string {
  return text.replace(
    UNPRINTABLE,
    (c) =>
      NAMED_ESCAPES[c] ??
      (c.charCodeAt(0) < 0x100
        ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`
        : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  )
}

/** {@link printable} for multi-line text (a story transcript): line feeds and tabs are kept. */
export function printableText(text: string): string {
  return text.replace(UNPRINTABLE, (c) => (c === '\n' || c === '\t' ? c : printable(c)))
}

/** One diagnostic as a text line: `path:line:column: severity code: message (field)`, always one printable line. */
export function formatDiagnosticLine(d: Diagnostic, color = false): string {
  const where = [d.path, d.line, d.line !== undefined ? d.column : undefined]
    .filter((x) => x !== undefined)
    .join(':')
  const sev = color ? `${COLORS[d.severity]}${d.severity}\x1b[0m` : d.severity
  const field = d.field ? ` [${d.field}]` : ''
  return printable(`${where ? `${where}: ` : ''}`) + `${sev} ${d.code}: ` + printable(`${d.message}${field}`)
}

/** A summary line: `2 errors, 1 warning`. */
export function summarize(diagnostics: readonly Diagnostic[]): string {
  const c = countBySeverity(diagnostics)
  const parts: string[] = []
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`
  if (c.fatal) parts.push(plural(c.fatal, 'fatal error'))
  if (c.error) parts.push(plural(c.error, 'error'))
  if (c.warning) parts.push(plural(c.warning, 'warning'))
  if (c.info) parts.push(`${c.info} info`)
  return parts.length ? parts.join(', ') : 'no problems'
}

function escapeGithubData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}
function escapeGithubProperty(s: string): string {
  return escapeGithubData(s).replace(/:/g, '%3A').replace(/,/g, '%2C')
}

/** One diagnostic as a GitHub workflow command (`::error file=…,line=…::message`). */
export function formatGithubAnnotation(
  d: Diagnostic,
  fileOf: (path: string | undefined) => string | undefined,
): string {
  const level =
    d.severity === 'fatal' || d.severity === 'error'
      ? 'error'
      : d.severity === 'warning'
        ? 'warning'
        : 'notice'
  const props: string[] = []
  const file = fileOf(d.path)
  if (file) props.push(`file=${escapeGithubProperty(file)}`)
  if (d.line !== undefined) props.push(`line=${d.line}`)
  if (d.column !== undefined) props.push(`col=${d.column}`)
  props.push(`title=${escapeGithubProperty(d.code)}`)
  return `::${level} ${props.join(',')}::${escapeGithubData(d.message + (d.field ? ` (${d.field})` : ''))}`
}

/**
 * A diagnostic about a file inside an archive, as an annotation on the archive itself: GitHub can
 * only point at files of the repository, so the inner path, line and column go at the start of
 * the message (`story/0003-forest.sty:5:1: ...`) instead of `line=` on the `.spkg`.
 */
export function formatArchiveAnnotation(d: Diagnostic, archive: string): string {
  const where = [d.path, d.line, d.line !== undefined ? d.column : undefined]
    .filter((x) => x !== undefined)
    .join(':')
  const { line: _line, column: _column, ...rest } = d
  return formatGithubAnnotation(
    { ...rest, message: where ? `${where}: ${d.message}` : d.message },
    () => archive,
  )
}

/**
 * The line that stands for the findings a cap left out: `... and 399801 more (pkg/missing-part 399801)`,
 * the codes most frequent first (at most five named).
 */
export function omittedLine(omitted: { count: number; byCode: Record<string, number> }): string {
  const codes = Object.entries(omitted.byCode).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  const named = codes.slice(0, 5).map(([code, n]) => `${code} ${n}`)
  if (codes.length > 5) named.push(`${codes.length - 5} other codes`)
  return printable(`... and ${omitted.count} more (${named.join(', ')}; --max-diagnostics all prints them)`)
}

/**
 * Writes diagnostics as text lines followed by a summary. When a cap left some out, `capped` gives
 * their count (one `... and N more` line) and the whole list the summary counts.
 */
export function writeTextDiagnostics(
  io: CliIO,
  diagnostics: readonly Diagnostic[],
  subject: string,
  capped?: { omitted: { count: number; byCode: Record<string, number> }; counted: readonly Diagnostic[] },
): void {
  const color = useColor(io)
  for (const d of diagnostics) io.stdout.write(`${formatDiagnosticLine(d, color)}\n`)
  if (capped) io.stdout.write(`${omittedLine(capped.omitted)}\n`)
  io.stdout.write(`${subject}: ${summarize(capped?.counted ?? diagnostics)}\n`)
}

/** Writes one JSON document followed by a newline. */
export function writeJson(io: CliIO, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
}

/**
 * A diagnostic as every `--format json` report writes it: `code`, `severity`, `message`, `path`
 * (null when it is about the archive as a whole), then `field`, `line`, `column` when known, and
 * last `docs`, the link to the code's entry in docs/diagnostic-codes.md.
 */
export function jsonDiagnostic({ code, severity, message, path, ...rest }: Diagnostic): object {
  return { code, severity, message, path: path ?? null, ...rest, docs: docsUrlOf(code) }
}

/** Items written per `stdout.write` by {@link writeJsonList}. */
const LIST_CHUNK = 512

/**
 * Writes `{ ...head, [key]: items.map(map) }` exactly as {@link writeJson} would (with `key` as
 * the last field), a few hundred items at a time: a report with 100,000 diagnostics never exists
 * as one string, nor as a mapped copy of the list.
 */
export function writeJsonList<T>(
  io: CliIO,
  head: object,
  key: string,
  items: readonly T[],
  map: (item: T) => unknown,
): void {
  const { [key]: _, ...rest } = head as Record<string, unknown>
  // ends with `"<key>": []\n}`
  const open = JSON.stringify({ ...rest, [key]: [] }, null, 2)
  if (items.length === 0) {
    io.stdout.write(`${open}\n`)
    return
  }
  let out = `${open.slice(0, -'[]\n}'.length)}[\n`
  for (let i = 0; i < items.length; i++) {
    const item = JSON.stringify(map(items[i]!), null, 2).replaceAll('\n', '\n    ')
    out += `    ${item}${i < items.length - 1 ? ',' : ''}\n`
    if ((i + 1) % LIST_CHUNK === 0) {
      io.stdout.write(out)
      out = ''
    }
  }
  io.stdout.write(`${out}  ]\n}\n`)
}
