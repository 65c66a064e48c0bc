/**
 * `spkg pack <folder> -o <file.spkg>`: an author's folder becomes a deterministic, canonical
 * package. Nothing is written when the result would be refused by a reader.
 */
import { hasErrors, hasFatal } from '@spkg/manifest'
import { type Command, EXIT, UsageError } from '../cli-types'
import { messageStream, resolvePath, writeOutputAtomic } from '../io'
import { packFolder } from '../pack/pack-folder'
import { createProgress } from '../pack/progress'
import { formatDiagnosticLine, summarize, useColor } from '../report'
import { HOST_NAMESPACE_OPTION, readNamespaces } from '../validate/trusted-keys'
import { validatePackageBytes } from '../validate/validate-package'

/** `spkg pack`: a story folder to a deterministic, validated `.spkg`. */
export const pack: Command = {
  path: ['pack'],
  summary: 'build a deterministic .spkg from a story folder',
  usage: 'pack <folder> -o <file.spkg|-> [--allow-errors] [--host-namespace <ns>]... [--quiet]',
  description: `Zips a story folder (manifest.json, story/, assets/, extensions/, session.json...) into a
package: manifest.json first and in canonical form, "parts" and "assets" completed from the folder when
the manifest omits them, "id" generated (with a warning) when absent, "integrity" recomputed, text
deflated and already-compressed media (jpg, png, webp, ogg, mp3, mp4, woff2...) stored. Hidden and
system files (.DS_Store, __MACOSX, Thumbs.db, .git...) are left out; links are refused. The output
is deterministic: every entry is dated 1980-01-01 and the entries are in byte order, so the same
folder always gives the same bytes. The package is then validated as 'spkg validate' would; when it
has an error or breaks a limit nothing is written and the exit code is 1 (--allow-errors writes a
package with errors, for testing a work in progress, but never one a reader would refuse). With -o - (or
/dev/stdout) the package is written to standard output, and the findings and the result line to
standard error. A signed source loses its signature: run 'spkg sign' afterwards. A story whose manifest
"requires" a host namespace is refused unless --host-namespace registers it, as 'spkg validate' does.`,
  positionals: [1, 1],
  options: {
    output: {
      type: 'string',
      short: 'o',
      valueName: '<file.spkg|->',
      description: 'the package to write (atomically; replaced if it exists); - for standard output',
    },
    'allow-errors': {
      type: 'boolean',
      description: 'write the package even when it has errors (never when a reader would refuse it)',
    },
    'host-namespace': HOST_NAMESPACE_OPTION,
    quiet: { type: 'boolean', short: 'q', description: 'print only errors and the result, no progress' },
  },
  examples: ['spkg pack examples/crooked-inn -o crooked-inn.spkg'],
  async run({ values, positionals, io }) {
    const out = values.output
    if (typeof out !== 'string' || out === '') throw new UsageError('missing -o <file.spkg>')
    const folder = positionals[0]!
    const quiet = values.quiet === true
    const hostNamespaces = readNamespaces(values['host-namespace'])
    // With the package on standard output, everything a person reads goes to standard error.
    const { toStdout, say } = messageStream(io, out, '<file.spkg>')
    const progress = createProgress(io, !quiet)
    const packed = await packFolder(resolvePath(io, folder), folder, {
      exclude: toStdout ? [] : [resolvePath(io, out)],
      progress,
    })
    let diagnostics = packed.diagnostics
    if (packed.bytes) {
      progress.update('validating the package')
      // The folder's findings go first; the package's own (a manifest warning again) are not repeated.
      const report = await validatePackageBytes(packed.bytes, {
        built: true,
        before: packed.diagnostics,
        hostNamespaces,
      })
      diagnostics = report.diagnostics
    }
    progress.done()
    const color = useColor(io, toStdout ? 'stderr' : 'stdout')
    for (const d of diagnostics) {
      if (quiet && d.severity !== 'error' && d.severity !== 'fatal') continue
      say.write(`${formatDiagnosticLine(d, color)}\n`)
    }
    if (
      !packed.bytes ||
      hasFatal(diagnostics) ||
      (hasErrors(diagnostics) && values['allow-errors'] !== true)
    ) {
      say.write(`${folder}: ${summarize(diagnostics)}; nothing was written\n`)
      return EXIT.invalid
    }
    await writeOutputAtomic(io, out, packed.bytes)
    const stored = packed.entries.filter((e) => e.method === 0).length
    say.write(
      `wrote ${toStdout ? 'standard output' : out}: ${packed.entries.length} entries (${packed.entries.length - stored} deflated, ${stored} stored), ${packed.bytes.length} bytes; ${summarize(diagnostics)}\n`,
    )
    return EXIT.ok
  },
}
