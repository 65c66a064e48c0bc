/**
 * The work of `sign.ts` (loaded only when the command runs, so `spkg --help` stays light):
 * `spkg sign <file.spkg> --key <secret>`: adds `META-PKG/checksum.sha256`, `signature.sig` and
 * `author.pub`, sets `signed: true` and `signature: ed25519:<fingerprint>` in the manifest, and
 * re-packs deterministically.
 */
import {
  CHECKSUM_PATH,
  createChecksumFile,
  keyFingerprint,
  PUBLIC_KEY_PATH,
  SIGNATURE_PATH,
} from '@spkg/integrity'
import { sha256HexSync } from '@spkg/integrity/node'
import { publicKeyFromSecret, signChecksum } from '@spkg/integrity/sign'
import { createDiagnostic, type Diagnostic, hasErrors, hasFatal, isSpkgError, LIMITS } from '@spkg/manifest'
import { openPackage } from '@spkg/reader/node'
import type { CommandContext, ExitCode } from '../cli-types'
import { EXIT, IOFailure, UsageError } from '../cli-types'
import { isRefusal, messageStream, readInput, readPackageInput, writeOutputAtomic } from '../io'
import { buildPackage, zipPackageFiles } from '../pack/build-package'
import { createProgress } from '../pack/progress'
import { formatDiagnosticLine, summarize, useColor } from '../report'
import { readNamespaces } from '../validate/trusted-keys'
import { validatePackageBytes } from '../validate/validate-package'

/** Findings about the old signature, which signing replaces: not a reason to refuse. */
const REPLACED =
  /^pkg\/(signature-|checksum-|untrusted-key|public-key-missing|signer-mismatch|key-malformed|pack-rewritten-field)/

const encoder = new TextEncoder()

/** Runs `spkg sign` (its options and help are in `sign.ts`). */
export async function runSign({ values, positionals, io }: CommandContext): Promise<ExitCode> {
  if (typeof values.key !== 'string' || values.key === '') throw new UsageError('missing --key <secret.sec>')
  const file = positionals[0]!
  const out = typeof values.output === 'string' && values.output !== '' ? values.output : file
  if (out === '-' && values.output !== '-')
    throw new UsageError('a package read from standard input needs -o <out.spkg>')
  const quiet = values.quiet === true
  const hostNamespaces = readNamespaces(values['host-namespace'])
  const allowErrors = values['allow-errors'] === true
  // With the package on standard output (-o -), everything a person reads goes to standard error.
  const { toStdout, say } = messageStream(io, out, '<out.spkg>')
  const secretText = new TextDecoder().decode(await readInput(io, values.key))
  let publicKeyText: string
  try {
    publicKeyText = await publicKeyFromSecret(secretText)
  } catch (e) {
    throw new IOFailure(
      `'${values.key}' is not a passphrase-less signify secret key${isSpkgError(e) ? ` (${e.message})` : ''}`,
    )
  }
  const fingerprint = await keyFingerprint(publicKeyText)
  const progress = createProgress(io, !quiet)
  progress.update(`verifying ${file}`)
  const input = await readPackageInput(io, file)
  // The checks of 'spkg validate'; the files to re-pack are read while the package is open.
  let opened = false
  let files: Map<string, Uint8Array> | undefined
  const checked = isRefusal(input)
    ? { diagnostics: [input.refused] }
    : await validatePackageBytes(input, {
        hostNamespaces,
        maxDiagnostics: Number.POSITIVE_INFINITY,
        onOpened: async (pkg) => {
          opened = true
          if (pkg.layout !== 'packaged') return
          files = new Map()
          for (const e of pkg.entries) files.set(e.path, await pkg.readBytes(e.path))
        },
      })
  const color = useColor(io, toStdout ? 'stderr' : 'stdout')
  const report = (diagnostics: readonly Diagnostic[]) => {
    for (const d of diagnostics) {
      if (quiet && d.severity !== 'error' && d.severity !== 'fatal') continue
      say.write(`${formatDiagnosticLine(d, color)}\n`)
    }
  }
  if (!opened) {
    progress.done()
    report(checked.diagnostics)
    say.write(`${file}: ${summarize(checked.diagnostics)}; a reader refuses it, so it was not signed\n`)
    return EXIT.invalid
  }
  const kept = checked.diagnostics.filter((d) => !REPLACED.test(d.code))
  if (!files || hasFatal(kept) || (hasErrors(kept) && !allowErrors)) {
    progress.done()
    report(kept)
    say.write(
      !files
        ? `${file}: a flat archive has no manifest to sign; move its .sty files into a story/ folder and pack that with 'spkg pack', which writes the manifest\n`
        : hasFatal(kept)
          ? `${file}: ${summarize(kept)}; it was not signed\n`
          : `${file}: ${summarize(kept)}; fix the errors before signing (--allow-errors signs it anyway)\n`,
    )
    return EXIT.invalid
  }
  progress.update('signing')
  const built = buildPackage(files, {
    source: 'the package',
    extraFiles: new Map([[PUBLIC_KEY_PATH, encoder.encode(publicKeyText)]]),
    editManifest: (m) => ({ ...m, signed: true, signature: fingerprint }),
  })
  const problems = built.diagnostics.filter((d) => !REPLACED.test(d.code))
  if (!built.bytes || hasFatal(problems) || (hasErrors(problems) && !allowErrors)) {
    progress.done()
    report(problems)
    say.write(`${file}: ${summarize(problems)}; nothing was written\n`)
    return EXIT.invalid
  }
  const hashes = new Map<string, string>()
  for (const [path, data] of built.files) hashes.set(path, sha256HexSync(data))
  const checksum = createChecksumFile(hashes)
  const signature = await signChecksum(checksum, secretText)
  const all = new Map(built.files)
  all.set(CHECKSUM_PATH, checksum)
  all.set(SIGNATURE_PATH, encoder.encode(signature))
  // The three META-PKG files count toward the limits too: a package at the limit cannot be signed.
  const total = [...all.values()].reduce((n, d) => n + d.length, 0)
  const limit =
    all.size > LIMITS.maxEntries
      ? createDiagnostic(
          'pkg/too-many-entries',
          `signing adds META-PKG files: the signed package would have ${all.size} entries, more than ${LIMITS.maxEntries}`,
        )
      : total > LIMITS.maxUncompressedBytes
        ? createDiagnostic(
            'pkg/too-large',
            `the signed package would hold ${total} bytes, more than ${LIMITS.maxUncompressedBytes}`,
          )
        : undefined
  if (limit) {
    progress.done()
    report([...kept, limit])
    say.write(`${file}: the signed package would break the package limits; nothing was written\n`)
    return EXIT.invalid
  }
  const signed = zipPackageFiles(all)
  // Open what was just written as a reader would, trusting the signing key: it must verify.
  progress.update('checking the signed package')
  const check = await openPackage(signed.bytes, { trustedKeys: [publicKeyText], hostNamespaces })
  if (!check.ok || check.package.signature.status !== 'verified') {
    progress.done()
    report(check.diagnostics)
    say.write(`${file}: the signed package does not verify; nothing was written\n`)
    if (check.ok) check.package.close()
    return EXIT.invalid
  }
  check.package.close()
  progress.done()
  report(kept)
  await writeOutputAtomic(io, out, signed.bytes)
  say.write(
    `signed ${toStdout ? 'standard output' : out} with ${fingerprint}: ${hashes.size} files in ${CHECKSUM_PATH}, ${signed.bytes.length} bytes\n`,
  )
  return EXIT.ok
}
