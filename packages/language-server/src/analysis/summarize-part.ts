/**
 * A stand-in for a part that is not being edited: a few lines that give `checkStory` every fact
 * about that part the checks of another part depend on, and nothing else. With stand-ins for
 * every other part, checking the edited part costs a parse of that part plus a few lines per
 * other part, instead of a parse of the whole story (the cross-part facts are listed below; a
 * test compares the result with a full check on the bench story and the examples).
 *
 * - the ids it defines, in order, so gates and links into it resolve (`story/unknown-id`,
 *   `story/not-a-target`), implicit heading ids included (one heading per heading);
 * - the names it declares with `{set n = e}` (`story/undeclared`, `story/shadowing` elsewhere);
 * - its gates and links into the part being checked (only what reaches that part decides its
 *   `story/unreachable` findings; the caller passes them, the rest is cached per part);
 * - whether it falls through to the next part (reachability of that part).
 */
import type { PartIndex } from './part-index.ts'

/**
 * Codes a check against stand-ins cannot decide, since a stand-in keeps no reads: whether a
 * variable is read anywhere (`story/unused-variable`). Left out of the check of one part and
 * shown by the whole-folder check.
 */
export const WHOLE_FOLDER_CODES: ReadonlySet<string> = new Set(['story/unused-variable'])

/**
 * Writes the stand-in source of a part from its {@link PartIndex}: the cached `head` (everything
 * but the targets) when `targets` is empty, else the head with those gates and links appended.
 */
export function summarizePart(index: PartIndex, targets: readonly string[] = []): string {
  return targets.length === 0 && !index.endsWithJump
    ? summaryHead(index)
    : [
        summaryHead(index),
        ...targets.map((t) => `[x > ${t}]`),
        ...(index.endsWithJump ? ['-> END'] : []),
      ].join('\n')
}

/** The stand-in without gates and links: ids and declarations. */
export function summaryHead(index: PartIndex): string {
  const out: string[] = []
  for (const name of index.declared) out.push(`{set ${name} = 0}`)
  out.push('x')
  const groupOptions = new Map<string, string[]>()
  // Option ids follow their group in the index; attach them to the group before them.
  let lastGroup: string | undefined
  for (const d of index.ids) {
    if (d.kind === 'group') {
      lastGroup = d.id
      groupOptions.set(d.id, [])
    } else if (d.kind === 'option' && lastGroup !== undefined) groupOptions.get(lastGroup)!.push(d.id)
  }
  for (const d of index.ids) {
    if (d.kind === 'heading') out.push(d.explicit ? `# x [#${d.id}]` : '# x')
    else if (d.kind === 'anchor') out.push('', `[#${d.id}]`, 'x')
    else if (d.kind === 'group') {
      const options = groupOptions.get(d.id)!
      // An implicit group id (`s1@1`) cannot be written in a target: only named groups and
      // options with ids matter to other parts.
      if (!d.explicit && options.length === 0) continue
      out.push('')
      if (d.explicit) out.push(`[#${d.id}]`)
      if (options.length === 0) out.push('* x')
      for (const o of options) out.push(`* x [#${o}]`)
      out.push('x')
    }
  }
  return out.join('\n')
}
