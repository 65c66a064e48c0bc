/**
 * The `.spkg.enc` magic and its test, apart from the container code: `isEncryptedPackage` runs on
 * every open, the rest of the container only for encrypted input.
 */
import { bytesEqual } from '../internal/bytes'

export const MAGIC = new Uint8Array([0x53, 0x50, 0x4b, 0x47, 0x45, 0x4e, 0x43, 0x00]) // "SPKGENC\0"

/** True when `bytes` starts with the container magic. */
export function hasMagic(bytes: Uint8Array): boolean {
  return bytes.length >= MAGIC.length && bytesEqual(bytes.subarray(0, MAGIC.length), MAGIC)
}
