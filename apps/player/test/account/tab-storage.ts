/**
 * Test helper: the `Storage` of one browser tab, in memory, with its map open for the test to look into.
 */
import type { KeyedStorage } from '../../src/account/session-store'

/** A `Storage` of one tab. */
export function tabStorage(): KeyedStorage & { map: Map<string, string> } {
  const map = new Map<string, string>()
  return {
    map,
    get length() {
      return map.size
    },
    key: (i) => [...map.keys()][i] ?? null,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  }
}
