/**
 * Where a diagnostic code is explained: its entry in docs/diagnostic-codes.md (the anchor is the
 * code with `/` as `-`). `spkg validate --format json` gives it as each diagnostic's `docs`.
 */

/** The base of the links: the guide's page in the repository. */
export const DIAGNOSTIC_DOCS = 'docs/diagnostic-codes.md'

/** The link to a code's entry, e.g. `docs/diagnostic-codes.md#story-unreachable`. */
export function docsUrlOf(code: string): string {
  return `${DIAGNOSTIC_DOCS}#${code.replace('/', '-')}`
}
