/**
 * `spkg sign <file.spkg> --key <secret>`: adds `META-PKG/checksum.sha256`, `signature.sig` and
 * `author.pub`, sets `signed: true` and `signature: ed25519:<fingerprint>` in the manifest, and
 * re-packs deterministically.
 */
import type { Command } from '../cli-types'
import { HOST_NAMESPACE_OPTION } from './options'

/** `spkg sign`: checksum file, signature and public key into the package, manifest marked signed. */
export const sign: Command = {
  path: ['sign'],
  summary: 'sign a package with an Ed25519 key (signify format)',
  usage:
    'sign <file.spkg> --key <secret.sec> [-o <out.spkg>] [--allow-errors] [--host-namespace <ns>]... [--quiet]',
  description: `Writes META-PKG/author.pub (the public half of the key), META-PKG/checksum.sha256 (GNU
sha256sum lines for every file except itself and the signature, so 'sha256sum -c --strict' accepts it
from the extracted package) and META-PKG/signature.sig (Ed25519 over the exact checksum bytes, which
'signify -V -p author.pub -x signature.sig -m checksum.sha256' verifies), sets "signed": true and
"signature": "ed25519:<fingerprint>" in the manifest, and re-packs deterministically. An existing
signature is replaced. The package is first checked as 'spkg validate' checks it (reader, author and
story checks; findings about the signature being replaced do not count): a package with an error is
not signed (exit 1) unless --allow-errors is given, and one a reader refuses never is. Without -o the package is replaced in place, atomically. A story whose manifest "requires" a
host namespace is refused unless --host-namespace registers it.`,
  positionals: [1, 1],
  options: {
    key: {
      type: 'string',
      short: 'k',
      valueName: '<secret.sec>',
      description: "the secret key file ('spkg keygen')",
    },
    output: {
      type: 'string',
      short: 'o',
      valueName: '<out.spkg>',
      description: 'write the signed package here (default: replace the input); - for standard output',
    },
    'allow-errors': {
      type: 'boolean',
      description: 'sign the package even when it has errors (never when a reader would refuse it)',
    },
    'host-namespace': HOST_NAMESPACE_OPTION,
    quiet: { type: 'boolean', short: 'q', description: 'print only errors and the result, no progress' },
  },
  examples: [
    'spkg sign crooked-inn.spkg --key ~/.spkg/author.sec',
    'spkg sign build/inn.spkg -k ci.sec -o dist/inn.spkg',
  ],
  run: (ctx) => import('./sign-run').then((m) => m.runSign(ctx)),
}
