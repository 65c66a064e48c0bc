/**
 * Canonical form of a SHA-256 digest: 64 lowercase hex digits. `manifest.integrity` writes that
 * form; an SRI token `sha256-<base64>` (what `fetch(url, { integrity })` takes) is accepted as
 * looser input and converted.
 */
import { fromBase64, fromHex, toBase64, toHex } from './internal/bytes'

const HEX64 = /^[0-9a-fA-F]{64}$/

/**
 * Normalises a SHA-256 digest to 64 lowercase hex digits: accepts hex in any case or an SRI
 * token `sha256-<base64>`; anything else (other algorithms, wrong length, bad base64) gives `undefined`.
 *
 * @example
 * normalizeDigest('sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=')
 * // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 */
export function normalizeDigest(value: string): string | undefined {
  if (typeof value !== 'string') return undefined
  if (value.length === 64) return HEX64.test(value) ? value.toLowerCase() : undefined
  if (value.startsWith('sha256-')) {
    const bytes = fromBase64(value.slice(7))
    return bytes?.length === 32 ? toHex(bytes) : undefined
  }
  return undefined
}

/**
 * The SRI token `sha256-<base64>` of a digest (hex or SRI input), for `fetch(url, { integrity })`;
 * `undefined` when `value` is not a SHA-256 digest.
 *
 * @example
 * toSriDigest('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
 * // 'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0='
 */
export function toSriDigest(value: string): string | undefined {
  const hex = normalizeDigest(value)
  return hex === undefined ? undefined : `sha256-${toBase64(fromHex(hex)!)}`
}
