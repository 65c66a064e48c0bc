/**
 * Files generated from the one code catalogue: the Markdown reference of every code, and the
 * severity table `createDiagnostic` reads (`codes/severities.ts`).
 */
import { CODES } from './codes'
import { DETAILS } from './codes/details'
import { FIXES } from './codes/fixes'

/** Renders the code catalogue as a Markdown table per area. */
export function renderCodesMarkdown(): string {
  const byArea = new Map<string, [string, (typeof CODES)[keyof typeof CODES]][]>()
  for (const [code, info] of Object.entries(CODES)) {
    const area = code.split('/')[0]!
    if (!byArea.has(area)) byArea.set(area, [])
    byArea.get(area)!.push([code, info])
  }
  let out =
    '# Diagnostic codes\n\nGenerated from `CODES` in `@spkg/manifest` (`pnpm --filter @spkg/manifest generate`); do not edit by hand.\n' +
    'Severity is the default: `fatal` refuses a package, `error` fails validation, `warning` and `info` never fail.\n' +
    'A project may change the severity of a non-fatal code (`spkg validate --rule <code>=<level>`, `spkg.config.json`).\n' +
    'Each code has an anchor, its name with `/` as `-` (`#story-unreachable`); the fixes are in `src/codes/fixes.ts`, the rules and examples of some codes in `src/codes/details.ts`.\n'
  const cell = (text: string) => text.replace(/\|/g, '\\|')
  for (const [area, rows] of byArea) {
    out += `\n## ${area}/\n\n| Code | Severity | Meaning | How to fix |\n|---|---|---|---|\n`
    for (const [code, info] of rows) {
      const anchor = code.replace('/', '-')
      const more = DETAILS[code as keyof typeof DETAILS] ? ` ([rule and example](#${anchor}-rule))` : ''
      out += `| <a id="${anchor}"></a>\`${code}\` | ${info.severity} | ${cell(info.description)}${more} | ${cell(FIXES[code as keyof typeof FIXES] ?? '')} |\n`
    }
    const detailed = rows.filter(([code]) => DETAILS[code as keyof typeof DETAILS])
    if (detailed.length) out += `\n### ${area}/: rules and examples\n`
    for (const [code] of detailed)
      out += `\n#### <a id="${code.replace('/', '-')}-rule"></a>\`${code}\`\n\n${DETAILS[code as keyof typeof DETAILS]!.trim()}\n`
  }
  return out
}

/**
 * The source of `codes/severities.ts` (before formatting): each code's default severity without
 * the descriptions, so a bundle that makes diagnostics does not carry the whole catalogue. Most
 * codes are errors: only the others are listed, as one space-separated string per severity (in a
 * player's initial load, that is a third of the bytes of one row per code).
 */
export function renderSeverities(): string {
  const bySeverity = new Map<string, string[]>()
  for (const [code, info] of Object.entries(CODES))
    if (info.severity !== 'error')
      bySeverity.set(info.severity, [...(bySeverity.get(info.severity) ?? []), code])
  const rows = [...bySeverity].map(([severity, codes]) => `  ${severity}: '${codes.join(' ')}',`)
  return `/**
 * GENERATED from \`CODES\` by src/codes-doc.ts (\`pnpm --filter @spkg/manifest generate\`): do not
 * edit. The default severity of every code that is not an error, without the descriptions.
 */
import type { Severity } from '../severity'
import type { DiagnosticCode } from './index'

const NOT_ERROR = /* @__PURE__ */ new Map(
  Object.entries({
${rows.join('\n')}
  }).flatMap(([severity, codes]) => codes.split(' ').map((code) => [code, severity as Severity] as const)),
)

/** The default severity of \`code\` (the \`severity\` of its \`CODES\` row). */
export const severityOf = (code: DiagnosticCode): Severity => NOT_ERROR.get(code) ?? 'error'
`
}
