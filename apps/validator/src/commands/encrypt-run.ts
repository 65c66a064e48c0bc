/**
 * The work of `encrypt.ts`, `decrypt.ts` and `keygen --encryption` (loaded only when one runs):
 * the `.spkg.enc` container of `@spkg/integrity/encrypt` from the command line.
 */
import {
  decryptPackage,
  encryptPackage,
  generateEncryptionKey,
  isEncryptedPackage,
  parseEncryptionKey,
} from '@spkg/integrity/encrypt'
import { SpkgError } from '@spkg/manifest'
import type { CliIO, CommandContext, ExitCode } from '../cli-types'
import { EXIT, IOFailure, UsageError } from '../cli-types'
import { readInput, resolvePath, writeOutputAtomic } from '../io'
import { exists, writeFailure, writeKeyFile } from './key-file'

/** The text of an encryption key file: 64 lowercase hex digits and a newline. */
export function encryptionKeyText(key: Uint8Array): string {
  return `${Buffer.from(key).toString('hex')}\n`
}

/** `spkg keygen --encryption -o <file>`: a random 256-bit key, mode 0600, never over a file unless --force. */
export async function runEncryptionKeygen({ values, io }: CommandContext): Promise<ExitCode> {
  const out = values.output
  if (typeof out !== 'string' || out === '') throw new UsageError('missing -o <file>')
  if (values.comment !== undefined) throw new UsageError('--comment is for signing keys, not --encryption')
  const target = resolvePath(io, out)
  try {
    await writeKeyFile(target, encryptionKeyText(generateEncryptionKey()), 0o600, values.force === true)
  } catch (e) {
    throw writeFailure(e, out)
  }
  io.stdout.write(
    `wrote ${out} (a 256-bit encryption key, mode 0600)\n` +
      `Encrypt with 'spkg encrypt <file.spkg> --key ${out}'; give the key to readers by another channel, and keep it out of the story folder and out of git.\n`,
  )
  return EXIT.ok
}

async function readKey(io: CliIO, value: unknown): Promise<Uint8Array> {
  if (typeof value !== 'string' || value === '') throw new UsageError('missing --key <key-file>')
  const bytes = await readInput(io, value)
  try {
    return parseEncryptionKey(bytes)
  } catch {
    throw new UsageError(
      `--key '${value}' does not hold an encryption key (64 hex digits or base64 of 32 bytes; make one with 'spkg keygen --encryption')`,
    )
  }
}

async function writeOutput(io: CliIO, out: string, force: boolean, data: Uint8Array): Promise<void> {
  if (!force && out !== '-' && (await exists(resolvePath(io, out))))
    throw writeFailure({ code: 'EEXIST' }, out)
  try {
    await writeOutputAtomic(io, out, data)
  } catch (e) {
    if (e instanceof IOFailure) throw e
    throw writeFailure(e, out)
  }
}

const isZip = (b: Uint8Array) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && (b[2] === 3 || b[2] === 5)

/** Runs `spkg encrypt` (its options and help are in `encrypt.ts`). */
export async function runEncrypt({ values, positionals, io }: CommandContext): Promise<ExitCode> {
  const input = positionals[0] as string
  const key = await readKey(io, values.key)
  const out = typeof values.output === 'string' && values.output !== '' ? values.output : `${input}.enc`
  const bytes = await readInput(io, input)
  if (isEncryptedPackage(bytes)) throw new UsageError(`'${input}' is already encrypted (.spkg.enc)`)
  if (!isZip(bytes)) throw new UsageError(`'${input}' is not a package (a .spkg ZIP archive)`)
  const sealed = await encryptPackage(bytes, key)
  await writeOutput(io, out, values.force === true, sealed)
  if (out !== '-')
    io.stdout.write(
      `wrote ${out}: ${sealed.length} bytes, encrypted; open it with --decryption-key <key-file>\n`,
    )
  return EXIT.ok
}

/** Runs `spkg decrypt` (its options and help are in `decrypt.ts`). */
export async function runDecrypt({ values, positionals, io }: CommandContext): Promise<ExitCode> {
  const input = positionals[0] as string
  const key = await readKey(io, values.key)
  const out =
    typeof values.output === 'string' && values.output !== ''
      ? values.output
      : input.endsWith('.enc') && input.length > 4
        ? input.slice(0, -4)
        : undefined
  if (out === undefined) throw new UsageError('give the output with -o <file.spkg>')
  const bytes = await readInput(io, input)
  if (!isEncryptedPackage(bytes))
    throw new UsageError(`'${input}' is not an encrypted package (no .spkg.enc header)`)
  let plain: Uint8Array
  try {
    plain = await decryptPackage(bytes, key)
  } catch (e) {
    if (!(e instanceof SpkgError)) throw e
    io.stderr.write(`${input}: fatal ${e.code}: ${e.message}\n`)
    return EXIT.invalid
  }
  await writeOutput(io, out, values.force === true, plain)
  if (out !== '-') io.stdout.write(`wrote ${out}: ${plain.length} bytes, decrypted\n`)
  return EXIT.ok
}
