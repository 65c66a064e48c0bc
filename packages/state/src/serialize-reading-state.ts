/**
 * The one text form of a saved reading state: what every driver stores, what `spkg play --save`
 * writes and what `parseReadingStateText` reads back.
 */
import { parseReadingState, type ReadingState, SpkgError } from '@spkg/manifest'

/**
 * Validates a reading state and returns its JSON text.
 *
 * @throws SpkgError `state/invalid` (with the diagnostics) when `state` is not a valid reading state
 * @example
 * const text = serializeReadingState(run.snapshot()) // '{"format":1,"id":"…",…}'
 */
export function serializeReadingState(state: ReadingState): string {
  const checked = parseReadingState(state)
  if (!checked.state) {
    const first = checked.diagnostics[0]
    throw new SpkgError(
      'state/invalid',
      `not a valid reading state: ${first?.message ?? 'unknown problem'}`,
      {
        diagnostics: checked.diagnostics,
      },
    )
  }
  return JSON.stringify(checked.state)
}
