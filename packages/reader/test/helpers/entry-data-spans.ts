/**
 * Where each entry's data lies in a ZIP archive, `[start, end)` by name: the local headers walked
 * from the start (the test archives have no data descriptors), so tests can tell from a server's
 * log which entries' data was requested.
 */
export function entryDataSpans(bytes: Uint8Array): Map<string, [number, number]> {
  const view = new DataView(bytes.buffer, bytes.byteOffset)
  const out = new Map<string, [number, number]>()
  for (let at = 0; view.getUint32(at, true) === 0x04034b50; ) {
    const nameLength = view.getUint16(at + 26, true)
    const start = at + 30 + nameLength + view.getUint16(at + 28, true)
    const end = start + view.getUint32(at + 18, true)
    out.set(new TextDecoder().decode(bytes.subarray(at + 30, at + 30 + nameLength)), [start, end])
    at = end
  }
  return out
}
