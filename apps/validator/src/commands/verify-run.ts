/**
 * The work of `verify.ts` (loaded only when the command runs, so `spkg --help` stays light):
 * `spkg verify <file.spkg> [--trusted-key <pub>]...`: is the package intact, and who signed it?
 * One verdict line per check (integrity, checksums, signature) and a clear exit code.
 */
import type { Diagnostic } from '@spkg/manifest'
import { openPackage } from '@spkg/reader/node'
import type { CommandContext, ExitCode } from '../cli-types'
import { EXIT } from '../cli-types'
import { isRefusal, readPackageInput } from '../io'
import { createProgress } from '../pack/progress'
import { formatDiagnosticLine, jsonDiagnostic, parseFormat, useColor, writeJsonList } from '../report'
import { readDecryptionKey, withCliAdvice } from '../validate/decryption-key'
import { readNamespaces, readTrustedKeys } from '../validate/trusted-keys'

const INTEGRITY = /^pkg\/integrity-/
const CHECKSUM = /^pkg\/checksum-/
const SIGNATURE = /^pkg\/(signature-|untrusted-key|public-key-missing|signer-mismatch|key-malformed)/

function bad(ds: readonly Diagnostic[], re: RegExp): Diagnostic[] {
  return ds.filter((d) => re.test(d.code) && (d.severity === 'fatal' || d.severity === 'error'))
}

/**
 * A hash mismatch against META-PKG/checksum.sha256 shares `pkg/integrity-mismatch` with one
 * against `manifest.integrity`; only the latter points at an `/integrity` field.
 */
const isChecksumMismatch = (d: Diagnostic) =>
  d.code === 'pkg/integrity-mismatch' && !d.field?.startsWith('/integrity')
const integrityFailures = (ds: readonly Diagnostic[]) =>
  bad(ds, INTEGRITY).filter((d) => !isChecksumMismatch(d))
const checksumFailures = (ds: readonly Diagnostic[]) => [
  ...bad(ds, CHECKSUM),
  ...bad(ds, INTEGRITY).filter(isChecksumMismatch),
]

/** The verdict of `spkg verify`, as `--format json` prints it. */
interface Verdict {
  file: string
  ok: boolean
  loads: boolean
  /** null: not known, the reader refused the package first (no failure of this check was seen). */
  integrity: 'ok' | 'absent' | 'failed' | null
  checksums: 'ok' | 'absent' | 'failed' | null
  signature: 'verified' | 'valid-untrusted' | 'untrusted' | 'invalid' | 'unsigned' | null
  fingerprint: string | null
  diagnostics: Diagnostic[]
}

/** Runs `spkg verify` (its options and help are in `verify.ts`). */
export async function runVerify({ values, positionals, io }: CommandContext): Promise<ExitCode> {
  const format = parseFormat(values.format, ['text', 'json'] as const)
  const file = positionals[0]!
  const trustedKeys = await readTrustedKeys(io, values['trusted-key'])
  const hostNamespaces = readNamespaces(values['host-namespace'])
  const progress = createProgress(io, values.quiet !== true && format === 'text')
  progress.update(`verifying ${file}`)
  const decryptionKey = await readDecryptionKey(io, values['decryption-key'])
  const input = await readPackageInput(io, file)
  const opened = isRefusal(input)
    ? { ok: false as const, diagnostics: [input.refused] }
    : await openPackage(input, {
        trustedKeys,
        hostNamespaces,
        ...(decryptionKey ? { decryptionKey } : {}),
      })
  progress.done()
  const ds = withCliAdvice(opened.diagnostics)
  const verdict: Verdict = {
    file,
    ok: false,
    loads: opened.ok,
    integrity: 'absent',
    checksums: 'absent',
    signature: 'unsigned',
    fingerprint: null,
    diagnostics: ds,
  }
  if (opened.ok) {
    const pkg = opened.package
    verdict.integrity =
      integrityFailures(ds).length > 0 ? 'failed' : pkg.manifest?.integrity !== undefined ? 'ok' : 'absent'
    verdict.checksums =
      checksumFailures(ds).length > 0 ? 'failed' : pkg.has('META-PKG/checksum.sha256') ? 'ok' : 'absent'
    verdict.fingerprint = pkg.signature.fingerprint ?? null
    const sigErrors = bad(ds, SIGNATURE)
    if (pkg.signature.status === 'verified') verdict.signature = 'verified'
    else if (pkg.signature.status === 'unsigned') verdict.signature = 'unsigned'
    else if (sigErrors.length > 0) verdict.signature = 'invalid'
    else verdict.signature = trustedKeys.length === 0 ? 'valid-untrusted' : 'untrusted'
    pkg.close()
    verdict.ok =
      verdict.integrity !== 'failed' &&
      verdict.checksums !== 'failed' &&
      (verdict.signature === 'verified' || verdict.signature === 'valid-untrusted')
  } else {
    // Refused: what the reader did not get to check is unknown, not absent or unsigned.
    verdict.integrity = integrityFailures(ds).length > 0 ? 'failed' : null
    verdict.checksums = checksumFailures(ds).length > 0 ? 'failed' : null
    verdict.signature = null
  }
  if (format === 'json') {
    // The diagnostics as 'spkg validate --format json' writes them (`path` null for the archive).
    writeJsonList(io, verdict, 'diagnostics', verdict.diagnostics, jsonDiagnostic)
    return verdict.ok ? EXIT.ok : EXIT.invalid
  }
  const color = useColor(io)
  for (const d of ds) {
    if (values.quiet === true && d.severity !== 'error' && d.severity !== 'fatal') continue
    if (d.severity === 'info') continue
    io.stdout.write(`${formatDiagnosticLine(d, color)}\n`)
  }
  if (!opened.ok) {
    io.stdout.write(`${file}: REFUSED: a reader would not open this package\n`)
    return EXIT.invalid
  }
  const sig: Record<NonNullable<Verdict['signature']>, string> = {
    verified: `verified, signed by trusted key ${verdict.fingerprint}`,
    'valid-untrusted': `valid, signed by ${verdict.fingerprint} (the key the package carries; pass --trusted-key to pin the publisher)`,
    untrusted: `NOT TRUSTED: signed by ${verdict.fingerprint ?? 'an unknown key'}, which no --trusted-key vouches for`,
    invalid: 'INVALID: the signature is missing, malformed or does not verify; the publisher is unverified',
    unsigned: 'UNSIGNED: the package has no signature',
  }
  const word = (s: Verdict['integrity'], what: string) =>
    s === 'ok' ? 'ok' : s === 'absent' ? `absent (no ${what})` : 'FAILED'
  if (values.quiet !== true) {
    io.stdout.write(`integrity: ${word(verdict.integrity, 'manifest.integrity')}\n`)
    io.stdout.write(`checksums: ${word(verdict.checksums, 'META-PKG/checksum.sha256')}\n`)
    io.stdout.write(`signature: ${sig[verdict.signature ?? 'unsigned']}\n`)
  }
  io.stdout.write(`${file}: ${verdict.ok ? 'OK' : 'VERIFICATION FAILED'}\n`)
  return verdict.ok ? EXIT.ok : EXIT.invalid
}
