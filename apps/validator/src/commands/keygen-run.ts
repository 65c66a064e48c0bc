/**
 * The work of `keygen.ts` (loaded only when the command runs, so `spkg --help` stays light):
 * `spkg keygen`: a new Ed25519 signing key pair in signify format (`<basename>.pub` and
 * `<basename>.sec`). The secret key has no passphrase, so it is written with mode 0600, atomically,
 * and never over an existing file unless `--force`.
 */
import { rm } from 'node:fs/promises'
import { generateSigningKeys } from '@spkg/integrity/sign'
import type { CommandContext, ExitCode } from '../cli-types'
import { type CliIO, EXIT, UsageError } from '../cli-types'
import { resolvePath } from '../io'
import { exists, writeFailure, writeKeyFile } from './key-file'

/** The longest comment signify accepts (its buffer is 1024 bytes with the terminating NUL). */
const MAX_COMMENT_BYTES = 1023

async function run(io: CliIO, base: string, force: boolean, comment: string | undefined) {
  const shown = { pub: `${base}.pub`, sec: `${base}.sec` }
  const pub = resolvePath(io, shown.pub)
  const sec = resolvePath(io, shown.sec)
  if (!force) {
    for (const [abs, name] of [
      [sec, shown.sec],
      [pub, shown.pub],
    ] as const)
      if (await exists(abs)) throw writeFailure({ code: 'EEXIST' }, name)
  }
  const keys = await generateSigningKeys(
    comment === undefined ? {} : { comment: comment.replace(/[\r\n]+/g, ' ').trim() || 'spkg key' },
  )
  try {
    await writeKeyFile(sec, keys.secretKeyText, 0o600, force)
  } catch (e) {
    throw writeFailure(e, shown.sec)
  }
  try {
    await writeKeyFile(pub, keys.publicKeyText, 0o644, force)
  } catch (e) {
    // Never leave a secret key without its public half from this run.
    await rm(sec, { force: true }).catch(() => {})
    throw writeFailure(e, shown.pub)
  }
  return { keys, shown }
}

/** Runs `spkg keygen` (its options and help are in `keygen.ts`). */
export async function runKeygen(ctx: CommandContext): Promise<ExitCode> {
  if (ctx.values.encryption === true) return (await import('./encrypt-run')).runEncryptionKeygen(ctx)
  const { values, io } = ctx
  const base = values.output
  if (typeof base !== 'string' || base === '') throw new UsageError('missing -o <basename>')
  if (/\.(pub|sec)$/.test(base))
    throw new UsageError(`give the basename without extension: -o ${base.replace(/\.(pub|sec)$/, '')}`)
  const comment = typeof values.comment === 'string' ? values.comment : undefined
  // signify keeps a comment in a 1024-byte buffer: a longer one makes a .pub it cannot read.
  const commentBytes = new TextEncoder().encode(comment ?? '').length
  if (commentBytes > MAX_COMMENT_BYTES)
    throw new UsageError(
      `--comment is ${commentBytes} bytes; signify reads comments of at most ${MAX_COMMENT_BYTES} bytes`,
    )
  const { keys, shown } = await run(io, base, values.force === true, comment)
  io.stdout.write(
    `wrote ${shown.pub} and ${shown.sec} (secret, mode 0600)\n` +
      `key id:      ${keys.keyId}\n` +
      `fingerprint: ${keys.fingerprint}\n` +
      `Sign with 'spkg sign <file.spkg> --key ${shown.sec}' (it writes the fingerprint into the manifest); keep ${shown.sec} private.\n`,
  )
  return EXIT.ok
}
