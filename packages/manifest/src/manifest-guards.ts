/**
 * The guards of `manifest.json` every reader keeps: its size before it is parsed and
 * its nesting, both cheap and both about safety and availability, not publishing policy. The
 * per-field bounds of {@link MANIFEST_LIMITS} are `checkManifestBounds` (`bounds.ts`), which a
 * parse runs only when asked: the validator and the platform always do, a browser reader need not
 * carry them. A leaf: the numbers are plain constants, so a bundle keeps only what it uses.
 */
import type { Diagnostic } from './diagnostic'
import { toPointer } from './diagnostic'
import { createDiagnostic } from './diagnostic-helpers'
import { deeperAt } from './json'

/** Bytes of `manifest.json` (UTF-8): 1 MiB. `MANIFEST_LIMITS.maxBytes`. */
export const MANIFEST_MAX_BYTES = 1_048_576

/** Deepest nesting of `manifest.json` (the manifest object is level 1). `MANIFEST_LIMITS.maxDepth`. */
export const MANIFEST_MAX_DEPTH = 64

/** `manifest/too-large` for the manifest at `path`, which `what` (`is over ...`, `holds ...`). */
export const tooLarge = (path: string, what: string): Diagnostic =>
  createDiagnostic('manifest/too-large', `${path} ${what}, the limit of a manifest; it is not read.`, {
    path,
  })

/**
 * `manifest/too-large` when `text` is over {@link MANIFEST_MAX_BYTES} in UTF-8: a string never
 * has more UTF-16 units than UTF-8 bytes, so a long one is refused by its length; one that may be
 * over is encoded into a buffer of the limit's size, which it must fit.
 */
export function textTooLarge(text: string, path: string): Diagnostic | undefined {
  const max = MANIFEST_MAX_BYTES
  const n = text.length
  if (n * 3 <= max || (n <= max && new TextEncoder().encodeInto(text, new Uint8Array(max)).read === n))
    return undefined
  return tooLarge(path, OVER)
}

const OVER = `is over ${MANIFEST_MAX_BYTES} bytes (1 MiB)`

/**
 * `manifest/too-deep` (with the pointer of the first value too deep, breadth first) when the
 * parsed manifest nests deeper than {@link MANIFEST_MAX_DEPTH}; `manifest/too-large` when it holds
 * more arrays and objects than a 1 MiB text can (only a value with shared or cyclic members
 * does). Iterative.
 */
export function tooDeep(value: unknown, path: string): Diagnostic | undefined {
  const at = deeperAt(value, MANIFEST_MAX_DEPTH, MANIFEST_MAX_BYTES / 2)
  if (at === undefined) return undefined
  // Each array or object is at least 2 bytes of its text: this many are over 1 MiB as JSON.
  if (at === null) return tooLarge(path, OVER)
  const field = toPointer(at)
  return createDiagnostic(
    'manifest/too-deep',
    `${path} nests deeper than ${MANIFEST_MAX_DEPTH} levels at "${field}"; it is not read.`,
    { path, field },
  )
}
