/**
 * `spkg decrypt <file.spkg.enc> --key <key-file> -o <file.spkg>`: opens a `.spkg.enc` container
 * back into the package it sealed, authenticating every chunk.
 */
import type { Command } from '../cli-types'

/** `spkg decrypt`: see the module comment and `--help`. */
export const decrypt: Command = {
  path: ['decrypt'],
  summary: 'decrypt a .spkg.enc back into the package it holds',
  usage: 'decrypt <file.spkg.enc> --key <key-file> [-o <file.spkg>] [--force]',
  description: `Authenticates and decrypts the whole container; a wrong key, a truncated or tampered file is
refused with pkg/decrypt-failed (exit 1) and nothing is written. The output defaults to the input
without .enc and is never an existing file unless --force.`,
  positionals: [1, 1],
  options: {
    key: { type: 'string', short: 'k', valueName: '<key-file>', description: 'the 256-bit key file' },
    output: { type: 'string', short: 'o', valueName: '<file.spkg>', description: 'where to write' },
    force: { type: 'boolean', description: 'overwrite an existing output file' },
  },
  examples: ['spkg decrypt inn.spkg.enc --key ~/.spkg/inn.key -o inn.spkg'],
  run: (ctx) => import('./encrypt-run').then((m) => m.runDecrypt(ctx)),
}
