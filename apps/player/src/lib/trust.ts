/**
 * Which publishers' keys the player trusts: those the build names (`VITE_SPKG_TRUSTED_KEYS`) and those the reader
 * chose to trust on this device (a fingerprint the envelope offered, kept in `localStorage`). A package signed by one
 * of them shows its publisher as verified; any other signature shows the SPEC's publisher-unverified notice.
 */
import { TRUSTED_KEYS } from './config'

const STORAGE_KEY = 'spkg-player.trusted-keys'
const FINGERPRINT = /^ed25519:[A-Za-z0-9+/]{43}=$/

function stored(): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]') as unknown
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && FINGERPRINT.test(x)) : []
  } catch {
    return []
  }
}

/** Every trusted key: the build's, then the reader's. */
export function trustedKeys(): string[] {
  return [...new Set([...TRUSTED_KEYS, ...stored()])]
}

/** Whether `fingerprint` has the form the reader can trust (`ed25519:<base64 of 32 bytes>`). */
export function isFingerprint(fingerprint: string | undefined): fingerprint is string {
  return typeof fingerprint === 'string' && FINGERPRINT.test(fingerprint)
}

/** Trusts a publisher's key on this device. */
export function trustKey(fingerprint: string): void {
  if (!isFingerprint(fingerprint)) return
  const keys = stored()
  if (!keys.includes(fingerprint)) keys.push(fingerprint)
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(keys))
  } catch {
    // Storage refused (private mode): the key is not kept.
  }
}
