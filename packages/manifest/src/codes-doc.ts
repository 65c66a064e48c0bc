/**
 * The Markdown reference of every diagnostic code, generated from the one catalogue.
 */
import { CODES } from './codes'

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
    'Severity is the default: `fatal` refuses a package, `error` fails validation, `warning` and `info` never fail.\n'
  for (const [area, rows] of byArea) {
    out += `\n## ${area}/\n\n| Code | Severity | Meaning |\n|---|---|---|\n`
    for (const [code, info] of rows)
      out += `| \`${code}\` | ${info.severity} | ${info.description.replace(/\|/g, '\\|')} |\n`
  }
  return out
}
