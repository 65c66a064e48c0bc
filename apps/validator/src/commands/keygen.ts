/**
 * `spkg keygen`: a new Ed25519 signing key pair in signify format (`<basename>.pub` and
 * `<basename>.sec`). The secret key has no passphrase, so it is written with mode 0600, atomically,
 * and never over an existing file unless `--force`.
 */
import type { Command } from '../cli-types'

export const keygen: Command = {
  path: ['keygen'],
  summary: 'create an Ed25519 signing key pair (signify format) for signing packages',
  usage: 'keygen -o <basename> [--force] [--comment <text>] | keygen --encryption -o <file> [--force]',
  description: `Writes <basename>.pub (the public key: 'spkg sign' copies it into META-PKG/author.pub; publish it
and register it with the platform, so players can pass it as --trusted-key) and <basename>.sec (the
secret key, mode 0600, no passphrase: keep it private). Both are in signify's format, so
'signify -V -p <basename>.pub' verifies what 'spkg sign' makes. Prints the key fingerprint, the value
'spkg sign' writes into the manifest's 'signature' field. Existing files are never overwritten unless
--force is given.`,
  positionals: [0, 0],
  options: {
    output: {
      type: 'string',
      short: 'o',
      valueName: '<basename>',
      description: 'path of the key files, without extension',
    },
    force: { type: 'boolean', description: 'overwrite existing key files' },
    encryption: {
      type: 'boolean',
      description: "write a random 256-bit encryption key to -o <file> instead (for 'spkg encrypt')",
    },
    comment: { type: 'string', short: 'c', valueName: '<text>', description: "the files' untrusted comment" },
  },
  examples: [
    'spkg keygen -o ~/.spkg/author',
    'spkg keygen -o keys/ci --comment "CI signing key" --force',
    'spkg keygen --encryption -o ~/.spkg/inn.key',
  ],
  run: (ctx) => import('./keygen-run').then((m) => m.runKeygen(ctx)),
}
