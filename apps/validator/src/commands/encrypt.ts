/**
 * `spkg encrypt <file.spkg> --key <key-file> -o <file.spkg.enc>`: seals a finished (signed)
 * package in `@spkg/integrity`'s `.spkg.enc` container with a 256-bit key from
 * `spkg keygen --encryption`; readers open it with the same key.
 */
import type { Command } from '../cli-types'

/** `spkg encrypt`: see the module comment and `--help`. */
export const encrypt: Command = {
  path: ['encrypt'],
  summary: 'encrypt a package (.spkg to .spkg.enc) with a key from keygen --encryption',
  usage: 'encrypt <file.spkg> --key <key-file> [-o <file.spkg.enc>] [--force]',
  description: `Encrypts the whole archive (sign first: the signature travels inside the ciphertext) into a
.spkg.enc container (AES-256-GCM, 64 KiB chunks) that 'spkg inspect', 'validate' and 'play' open with
--decryption-key <key-file>, and 'spkg decrypt' turns back into the package. The key is 64 hex
digits (or base64 of 32 bytes) in a file: give it to readers by another channel, keep it out of the
story folder ('spkg pack' refuses a folder holding one) and out of git. The output defaults to
<file.spkg>.enc and is never an existing file unless --force.`,
  positionals: [1, 1],
  options: {
    key: { type: 'string', short: 'k', valueName: '<key-file>', description: 'the 256-bit key file' },
    output: { type: 'string', short: 'o', valueName: '<file.spkg.enc>', description: 'where to write' },
    force: { type: 'boolean', description: 'overwrite an existing output file' },
  },
  examples: [
    'spkg keygen --encryption -o ~/.spkg/inn.key',
    'spkg encrypt inn.spkg --key ~/.spkg/inn.key -o inn.spkg.enc',
  ],
  run: (ctx) => import('./encrypt-run').then((m) => m.runEncrypt(ctx)),
}
