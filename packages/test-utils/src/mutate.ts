/** One edit of {@link mutate}: a position (taken modulo the length), a bit or byte value, a kind. */
export type ByteEdit = readonly [at: number, value: number, kind: 'flip' | 'cut' | 'drop' | 'insert' | 'set']

/**
 * A copy of `bytes` with the edits applied in order (property tests feed arbitrary ones): `flip`
 * inverts bit `value & 7`, `cut` truncates there, `drop` removes the byte, `insert` inserts
 * `value & 255` before it, `set` overwrites it with `value & 255`. Edits on an empty array stop.
 *
 * @example
 * mutate(new Uint8Array([1, 2, 3]), [[1, 0, 'flip'], [5, 9, 'insert']]) // [1, 3, 9, 3]
 */
export function mutate(bytes: Uint8Array, edits: readonly ByteEdit[]): Uint8Array {
  const out = [...bytes]
  for (const [at, value, kind] of edits) {
    if (out.length === 0) break
    const i = at % out.length
    if (kind === 'flip') out[i]! ^= 1 << (value & 7)
    else if (kind === 'cut') out.length = i
    else if (kind === 'drop') out.splice(i, 1)
    else if (kind === 'insert') out.splice(i, 0, value & 255)
    else out[i] = value & 255
  }
  return new Uint8Array(out)
}
