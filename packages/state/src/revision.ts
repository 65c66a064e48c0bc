/** A fresh opaque revision: 64 random bits in hex, so two writers never mint the same one. */
export function newRevision(): string {
  const bytes = new Uint8Array(8)
  crypto.getRandomValues(bytes)
  let out = ''
  for (const b of bytes) out += b.toString(16).padStart(2, '0')
  return out
}
