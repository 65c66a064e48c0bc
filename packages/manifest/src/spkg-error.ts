import type { DiagnosticCode } from './codes'
import type { Diagnostic } from './diagnostic'

/**
 * The one error class thrown across package boundaries: it carries the stable `code` of the
 * finding that stopped the work and every diagnostic gathered up to then.
 *
 * @example
 * try { await openPackage(bytes) } catch (e) { if (e instanceof SpkgError) console.log(e.code) }
 */
export class SpkgError extends Error {
  readonly code: DiagnosticCode
  readonly diagnostics: readonly Diagnostic[]

  constructor(
    code: DiagnosticCode,
    message: string,
    options: { diagnostics?: readonly Diagnostic[]; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = new.target.name
    this.code = code
    this.diagnostics = options.diagnostics ?? []
    const capture = (Error as { captureStackTrace?: (target: object, ctor: unknown) => void })
      .captureStackTrace
    capture?.(this, new.target)
  }
}

/** True when `value` is an {@link SpkgError} (also across bundle copies, by shape). */
export function isSpkgError(value: unknown): value is SpkgError {
  return (
    value instanceof SpkgError ||
    (value instanceof Error &&
      typeof (value as { code?: unknown }).code === 'string' &&
      Array.isArray((value as { diagnostics?: unknown }).diagnostics))
  )
}
