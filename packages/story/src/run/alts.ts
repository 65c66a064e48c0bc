/**
 * 1.1: sequences, cycles, once-only alternatives and shuffles (section 2 of the 1.1 design), with
 * ink's semantics. Each alternative counts how many times flow reached it in `<key>@seq`; a shuffle
 * also keeps the items left in its round in `<key>@bag`, drawn from the story's mulberry32
 * generator, so replay and resume reproduce it exactly. Internal.
 */
import type { AltMode } from '../ast.ts'
import type { AltSpec } from './code.ts'
import { drawUint32 } from './rng.ts'
import type { Value } from './types.ts'
import { intern, type Vm } from './vm.ts'

/** The compiled alternative `id` of `file` with `n` items. */
export function altSpec(file: string, id: string, mode: AltMode, n: number): AltSpec {
  return { mode, n, seqKey: intern(`${file}:${id}@seq`), bagKey: intern(`${file}:${id}@bag`) }
}

/**
 * Flow reaches the alternative: counts the visit and returns the item (or branch) to show, or -1
 * for none (a once-only alternative past its last item).
 *
 * - `seq`: item `min(count, n - 1)` (ink's `{a|b|c}`);
 * - `cycle`: item `count % n` (ink's `{&a|b}`);
 * - `once`: item `count` while `count < n`, then nothing (ink's `{!a|b}`);
 * - `shuffle`: each round of `n` visits shows every item once (ink's `{~a|b}`): the bag holds the
 *   items not yet shown in this round (refilled with all of them when empty), and each visit takes
 *   one at random with one draw `floor(out * left / 2^32)` as `pick()` does; the last item of a
 *   round is taken without a draw.
 */
export function altIndex(m: Vm, a: AltSpec): number {
  const seen = m.vars.get(a.seqKey)
  const count = typeof seen === 'number' && seen >= 0 ? seen : 0
  m.vars.set(a.seqKey, count + 1)
  const n = a.n
  switch (a.mode) {
    case 'seq':
      return count < n ? count : n - 1
    case 'cycle':
      return count % n
    case 'once':
      return count < n ? count : -1
    case 'shuffle':
      return shuffleNext(m, a)
  }
}

function shuffleNext(m: Vm, a: AltSpec): number {
  const n = a.n
  if (n === 1) return 0
  const saved = m.vars.get(a.bagKey)
  let bag: number[] = []
  // A bag saved before an edit that removed items keeps only the items that still exist.
  if (Array.isArray(saved))
    for (const v of saved as Value[])
      if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < n) bag.push(v)
  if (bag.length === 0) bag = Array.from({ length: n }, (_, i) => i)
  const at = bag.length === 1 ? 0 : Math.floor((drawUint32(m.rng) * bag.length) / 4294967296)
  const item = bag[at]!
  // a new list each time: values in `vars` may be shared with a saved state
  const left = bag.slice(0, at).concat(bag.slice(at + 1))
  m.vars.set(a.bagKey, left)
  return item
}
