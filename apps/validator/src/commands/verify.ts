/**
 * `spkg verify <file.spkg> [--trusted-key <pub>]...`: is the package intact, and who signed it?
 * One verdict line per check (integrity, checksums, signature) and a clear exit code.
 */
import type { Command } from '../cli-types'
import { DECRYPTION_KEY_OPTION, FORMAT_OPTION, HOST_NAMESPACE_OPTION } from './options'

/** `spkg verify`: integrity, checksum and signature verdicts with a pass/fail exit code. */
export const verify: Command = {
  path: ['verify'],
  summary: "check a package's integrity hashes, checksum file and signature",
  usage:
    'verify <file.spkg> [--trusted-key <pub|fingerprint>]... [--host-namespace <ns>]... [--format text|json] [--decryption-key <key-file>] [--quiet]',
  description: `Opens the package as a reader does (every entry inflated, size and CRC-32 checked) and reports
three verdicts: "integrity" (manifest.integrity against the recomputed SHA-256 of every file),
"checksums" (META-PKG/checksum.sha256, closed world) and "signature" (META-PKG/signature.sig over the
checksum file). A key given with --trusted-key (a .pub file from 'spkg keygen', or its
ed25519:<base64> fingerprint) makes the publisher "verified"; META-PKG/author.pub alone never does.

Exit 0: the bytes are intact and the signature verifies with a trusted key, or, when no --trusted-key
is given, with the key the package embeds (reported as "valid, key not trusted"). Exit 1: the package
is refused, a hash or checksum fails, the signature is missing or does not verify, or it verifies only
with a key none of the --trusted-key values vouches for. Exit 2: usage or I/O error. A story whose
manifest "requires" a host namespace is refused unless --host-namespace registers it.`,
  positionals: [1, 1],
  options: {
    'trusted-key': {
      type: 'string',
      multiple: true,
      short: 'k',
      valueName: '<pub>',
      description:
        'a public key (.pub file or ed25519: fingerprint) trusted to sign this package; repeatable',
    },
    'host-namespace': HOST_NAMESPACE_OPTION,
    format: FORMAT_OPTION,
    'decryption-key': DECRYPTION_KEY_OPTION,
    quiet: { type: 'boolean', short: 'q', description: 'print only the verdict line and errors' },
  },
  examples: [
    'spkg verify crooked-inn.spkg --trusted-key ~/.spkg/author.pub',
    'spkg verify crooked-inn.spkg --format json | jq .signature',
  ],
  run: (ctx) => import('./verify-run').then((m) => m.runVerify(ctx)),
}
