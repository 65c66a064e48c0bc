/**
 * The catalogue of every diagnostic code the project emits: one table, one row per code,
 * each declared once in its area's file. `DiagnosticCode` derives from it, so a typo does not compile.
 */
import { INTEGRITY_CODES } from './integrity'
import { MANIFEST_CODES } from './manifest'
import { PKG_CODES } from './pkg'
import { REPO_CODES } from './repo'
import { STATE_CODES } from './state'
import { STORY_CODES } from './story'
import type { CodeInfo } from './types'

// Marked pure: in the bundled dist/ (one module), a bundler cannot prove an object spread free of
// side effects, and would keep the whole catalogue (22 KB) in every browser build that never reads it.
export const CODES = /* @__PURE__ */ (() =>
  ({
    ...MANIFEST_CODES,
    ...PKG_CODES,
    ...INTEGRITY_CODES,
    ...STORY_CODES,
    ...STATE_CODES,
    ...REPO_CODES,
  }) as const satisfies Record<string, CodeInfo>)()

/** Every code the project emits. */
export type DiagnosticCode = keyof typeof CODES

export type { CodeInfo }

/** True when `code` is a code of the catalogue. */
export function isDiagnosticCode(code: string): code is DiagnosticCode {
  return Object.hasOwn(CODES, code)
}
