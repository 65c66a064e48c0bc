/**
 * "Did you mean …?": the nearest known name to a misspelt one, for the messages of the parser and
 * the checker (command words, ids, variables, functions). A leaf: it imports nothing.
 */

/**
 * The edit distance of `a` and `b` (insertions, deletions, substitutions and swaps of two
 * neighbours, each 1; optimal string alignment), or `max + 1` as soon as it is certainly more
 * than `max`. Linear space; names are short, so the quadratic time does not matter.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1
  let prev2: number[] = []
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    let best = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1)
      row.push(d)
      if (d < best) best = d
    }
    if (best > max) return max + 1
    prev2 = prev
    prev = row
  }
  return prev[b.length]!
}

/**
 * The candidate nearest to `name`, when it is close enough to be a slip of the keyboard: one edit
 * for names of up to 4 characters, two for longer ones (a case-only difference always counts).
 * Ties go to the first candidate. Undefined when none is close, or `name` itself is a candidate.
 */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  const max = name.length <= 4 ? 1 : 2
  let best: string | undefined
  let bestD = max + 1
  const lower = name.toLowerCase()
  for (const c of candidates) {
    if (c === name) return undefined
    const d = c.toLowerCase() === lower ? 0 : editDistance(name, c, Math.min(max, bestD - 1))
    if (d < bestD) {
      best = c
      bestD = d
    }
  }
  return best
}

/** `; did you mean '<shown>'?` for the nearest candidate, or `''` when none is close. */
export function didYouMean(
  name: string,
  candidates: Iterable<string>,
  show: (c: string) => string = (c) => c,
): string {
  const meant = nearestName(name, candidates)
  return meant === undefined ? '' : `; did you mean '${show(meant)}'?`
}
