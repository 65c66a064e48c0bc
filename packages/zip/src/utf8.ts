/**
 * A strict UTF-8 check for the web backend that builds no string for the usual story text: ASCII
 * is recognised a word at a time, anything else goes through the platform's strict decoder.
 * (Node has `buffer.isUtf8`; browsers only have `TextDecoder`, which would build a string of
 * every text file just to throw it away.)
 */

const strict = /* @__PURE__ */ new TextDecoder('utf-8', { fatal: true })

/** True when every byte of `data` is below 0x80. */
export function isAscii(data: Uint8Array): boolean {
  const n = data.length
  // Bytes up to a 4-byte boundary of the buffer, then whole words, then the tail.
  const head = (4 - (data.byteOffset & 3)) & 3
  if (n < head + 4) {
    for (let i = 0; i < n; i++) if (data[i]! & 0x80) return false
    return true
  }
  for (let i = 0; i < head; i++) if (data[i]! & 0x80) return false
  const words = new Uint32Array(data.buffer, data.byteOffset + head, (n - head) >>> 2)
  for (let w = 0; w < words.length; w++) if (words[w]! & 0x80808080) return false
  for (let i = head + words.length * 4; i < n; i++) if (data[i]! & 0x80) return false
  return true
}

/** True when `data` is valid UTF-8 (ASCII without decoding). */
export function isUtf8(data: Uint8Array): boolean {
  if (isAscii(data)) return true
  try {
    strict.decode(data)
    return true
  } catch {
    return false
  }
}
