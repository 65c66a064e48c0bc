/**
 * A one-line progress indicator on standard error, redrawn in place: only on a TTY, never with
 * `--quiet` or JSON output, so pipes and logs never see it.
 */
import type { CliIO } from '../cli-types'

/** A progress line: `update` redraws it, `done` erases it. */
export interface Progress {
  update(message: string): void
  done(): void
}

const SILENT: Progress = { update() {}, done() {} }

/**
 * A progress line for `io.stderr` when it is a TTY and `enabled`; otherwise one that prints nothing.
 *
 * @example
 * const progress = createProgress(io, !quiet && format !== 'json')
 * progress.update('hashing 3/120 story/0003-forest.sty')
 * progress.done()
 */
export function createProgress(io: CliIO, enabled: boolean): Progress {
  if (!enabled || io.stderr.isTTY !== true) return SILENT
  let shown = false
  let last = 0
  return {
    update(message) {
      const now = Date.now()
      if (shown && now - last < 50) return
      last = now
      shown = true
      io.stderr.write(`\r\x1b[2K${message.length > 78 ? `${message.slice(0, 77)}…` : message}`)
    },
    done() {
      if (shown) io.stderr.write('\r\x1b[2K')
      shown = false
    },
  }
}
