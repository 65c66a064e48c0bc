/**
 * Sets (1.1, ink's LIST): a declaration's items in declared order, and set values. A leaf (no
 * import from the package at run time): values.ts, expr.ts and the machine share it. Internal,
 * except the {@link ItemSet} type that story values may hold.
 */

/** A set declaration `{items Tools = rope, lamp, key}` at run time. */
export interface SetDecl {
  readonly name: string
  /** The items in declared order. */
  readonly items: readonly string[]
  /** Item name → its position in `items`. */
  readonly index: ReadonlyMap<string, number>
  /**
   * What each item prints, when one says so (`lamp "oil lamp"`; a minified story's renamed items
   * print their original names this way); otherwise an item prints its name.
   */
  readonly shown?: readonly string[]
}

/** Makes the run-time form of `{items name = items}` from its declared items. */
export function setDecl(name: string, items: ReadonlyArray<{ name: string; text?: string }>): SetDecl {
  const names = items.map((x) => x.name)
  const index = new Map(names.map((x, i) => [x, i]))
  return items.some((x) => x.text !== undefined)
    ? { name, items: names, index, shown: items.map((x) => x.text ?? x.name) }
    : { name, items: names, index }
}

/**
 * A set value: some items of one declaration. `ords` are their positions in the declaration,
 * ascending, each once. Never mutated: `+` and `-` build new sets.
 */
export class ItemSet {
  constructor(
    readonly decl: SetDecl,
    readonly ords: readonly number[],
  ) {}

  /** The item names, in declared order. */
  get names(): string[] {
    return this.ords.map((o) => this.decl.items[o]!)
  }

  /** `Tools.rope, Tools.key`: how a set is told in a message. */
  toString(): string {
    return this.ords.length ? this.names.join(', ') : `${this.decl.name}()`
  }
}

/** The union of two sets of one declaration. */
export function union(a: ItemSet, b: ItemSet): ItemSet {
  if (b.ords.length === 0) return a
  if (a.ords.length === 0) return b
  const out: number[] = []
  let i = 0
  let j = 0
  while (i < a.ords.length || j < b.ords.length) {
    const x = a.ords[i]
    const y = b.ords[j]
    if (y === undefined || (x !== undefined && x < y)) {
      out.push(x!)
      i++
    } else if (x === undefined || y < x) {
      out.push(y)
      j++
    } else {
      out.push(x)
      i++
      j++
    }
  }
  return new ItemSet(a.decl, out)
}

/** The items of `a` that are not in `b`. */
export function difference(a: ItemSet, b: ItemSet): ItemSet {
  if (b.ords.length === 0 || a.ords.length === 0) return a
  const drop = new Set(b.ords)
  return new ItemSet(
    a.decl,
    a.ords.filter((o) => !drop.has(o)),
  )
}

/** ink's `?`: every item of `b` is in `a`; false when either is empty (ink 1.1). */
export function containsAll(a: ItemSet, b: ItemSet): boolean {
  if (a.ords.length === 0 || b.ords.length === 0) return false
  if (a.decl !== b.decl) return false
  const has = new Set(a.ords)
  return b.ords.every((o) => has.has(o))
}

/** Same items (two empty sets are equal, as ink's empty lists are). */
export function sameSet(a: ItemSet, b: ItemSet): boolean {
  if (a.ords.length !== b.ords.length) return false
  if (a.ords.length === 0) return true
  if (a.decl !== b.decl) return false
  for (let i = 0; i < a.ords.length; i++) if (a.ords[i] !== b.ords[i]) return false
  return true
}

/**
 * `<`, `<=`, `>`, `>=` exactly as ink compares LISTs (InkList.LessThan and the rest): `a < b` when
 * every item of `a` comes before every item of `b`; `a <= b` when neither end of `a` is after that
 * end of `b`; an empty set is less than any non-empty one.
 */
export function compareSets(op: '<' | '<=' | '>' | '>=', a: ItemSet, b: ItemSet): boolean {
  const an = a.ords.length
  const bn = b.ords.length
  const aMin = a.ords[0]!
  const aMax = a.ords[an - 1]!
  const bMin = b.ords[0]!
  const bMax = b.ords[bn - 1]!
  switch (op) {
    case '<':
      if (bn === 0) return false
      return an === 0 || aMax < bMin
    case '<=':
      if (bn === 0) return false
      return an === 0 || (aMax <= bMax && aMin <= bMin)
    case '>':
      if (an === 0) return false
      return bn === 0 || aMin > bMax
    default:
      if (an === 0) return false
      return bn === 0 || (aMin >= bMin && aMax >= bMax)
  }
}

/** The one-item set of the first (`min`) or last (`max`) item; empty for an empty set. */
export function extremeItem(s: ItemSet, last: boolean): ItemSet {
  if (s.ords.length <= 1) return s
  return new ItemSet(s.decl, [last ? s.ords[s.ords.length - 1]! : s.ords[0]!])
}

/** The reading-state form of a set: `{"$items": "Tools", "of": ["rope"]}`. */
export function setToJson(s: ItemSet): { $items: string; of: string[] } {
  return { $items: s.decl.name, of: s.names }
}
