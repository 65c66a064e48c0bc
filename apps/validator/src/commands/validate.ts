/**
 * `spkg validate <file.spkg|folder>`: everything a reader checks, plus what an author wants to
 * know before publishing. A folder is validated as the package `spkg pack` would make of it.
 */
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Diagnostic } from '@spkg/manifest'
import { type Command, EXIT } from '../cli-types'
import { isRefusal, readPackageInput, resolvePath } from '../io'
import { packFolder } from '../pack/pack-folder'
import { createProgress } from '../pack/progress'
import {
  formatArchiveAnnotation,
  formatGithubAnnotation,
  jsonDiagnostic,
  parseFormat,
  writeJsonList,
  writeTextDiagnostics,
} from '../report'
import { DECRYPTION_KEY_OPTION, readDecryptionKey } from '../validate/decryption-key'
import { HOST_NAMESPACE_OPTION, readNamespaces, readTrustedKeys } from '../validate/trusted-keys'
import { type ValidationReport, validatePackageBytes } from '../validate/validate-package'

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}

/** `spkg validate`: the reader's checks plus author and story checks, as text, JSON or GitHub annotations. */
export const validate: Command = {
  path: ['validate'],
  summary: 'check a package (or the folder it is packed from) as a reader would, plus author checks',
  usage:
    'validate <file.spkg|folder> [--format text|json|github] [--trusted-key <pub>]... [--host-namespace <ns>]... [--decryption-key <key-file>] [--quiet]',
  description: `Opens the package exactly as a player does (ZIP structure, names, limits, layout, manifest,
parts, extensions, integrity, checksums, signature) and adds the author checks: assets listed but
missing, files referenced by nothing, no cover, already-compressed media stored with deflate, a
manifest not in canonical form. A folder is validated as the package 'spkg pack' would make of it.

--format json prints one object {loads, valid, layout, type, entry, parts, manifest, diagnostics};
"loads" means a reader opens it (no fatal problem), "valid" means no fatal problem and no error.
--format github prints GitHub workflow annotations. Exit 0 valid (warnings allowed), 1 invalid,
2 usage or I/O error.`,
  positionals: [1, 1],
  options: {
    format: {
      type: 'string',
      short: 'f',
      valueName: 'text|json|github',
      description: 'output format',
      default: 'text',
    },
    'trusted-key': {
      type: 'string',
      multiple: true,
      short: 'k',
      valueName: '<pub>',
      description: 'a public key (.pub file or ed25519: fingerprint) the embedder trusts; repeatable',
    },
    'host-namespace': HOST_NAMESPACE_OPTION,
    'decryption-key': DECRYPTION_KEY_OPTION,
    quiet: { type: 'boolean', short: 'q', description: 'print only errors and fatal problems, no progress' },
  },
  examples: [
    'spkg validate crooked-inn.spkg',
    'spkg validate examples/crooked-inn --format json | jq .valid',
    'spkg validate dist/inn.spkg --trusted-key author.pub --host-namespace host --format github',
  ],
  async run({ values, positionals, io }) {
    const format = parseFormat(values.format, ['text', 'json', 'github'] as const)
    const target = positionals[0]!
    const quiet = values.quiet === true
    const trustedKeys = await readTrustedKeys(io, values['trusted-key'])
    const hostNamespaces = readNamespaces(values['host-namespace'])
    const progress = createProgress(io, !quiet && format !== 'json')
    const abs = resolvePath(io, target)
    const folder = await isFolder(abs)
    let report: ValidationReport
    const refusedReport = (diagnostics: Diagnostic[]): ValidationReport => ({
      loads: false,
      valid: false,
      layout: null,
      type: null,
      entry: null,
      parts: [],
      manifest: null,
      diagnostics,
    })
    if (folder) {
      const packed = await packFolder(abs, target, { progress })
      if (packed.bytes) {
        progress.update('validating')
        report = await validatePackageBytes(packed.bytes, {
          trustedKeys,
          hostNamespaces,
          before: packed.diagnostics,
          built: true,
        })
      } else report = refusedReport(packed.diagnostics)
    } else {
      const bytes = await readPackageInput(io, target)
      progress.update(`validating ${target}`)
      const decryptionKey = await readDecryptionKey(io, values['decryption-key'])
      report = isRefusal(bytes)
        ? refusedReport([bytes.refused])
        : await validatePackageBytes(bytes, {
            trustedKeys,
            hostNamespaces,
            ...(decryptionKey ? { decryptionKey } : {}),
          })
    }
    progress.done()
    const shown: Diagnostic[] = quiet
      ? report.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'fatal')
      : report.diagnostics
    if (format === 'json') {
      // Every diagnostic carries `path` (null when it is about the archive as a whole).
      writeJsonList(io, report, 'diagnostics', shown, jsonDiagnostic)
    } else if (format === 'github') {
      const fileOf = (p: string | undefined) => (p ? join(target, p) : target)
      for (const d of shown)
        io.stdout.write(
          `${folder ? formatGithubAnnotation(d, fileOf) : formatArchiveAnnotation(d, target)}\n`,
        )
    } else {
      const verdict = report.valid ? 'valid' : report.loads ? 'invalid (a reader still opens it)' : 'refused'
      writeTextDiagnostics(io, shown, `${target}: ${verdict}`)
    }
    return report.valid ? EXIT.ok : EXIT.invalid
  },
}
