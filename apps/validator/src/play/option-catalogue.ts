/**
 * Every option of a parsed part, so a random walk can report the ones it never saw offered.
 */
import type { Inline, Node, PartAst } from '@spkg/story'

/** One option of the story, by decision key and option id. */
export interface CatalogueOption {
  /** Decision key of its group (`story/0001-inn.sty:bar@1`). */
  key: string
  id: string
  /** The label's literal text (interpolations shown as `…`). */
  text: string
  fallback: boolean
  path: string
  line: number
  column: number
}

function labelText(inlines: readonly Inline[]): string {
  let out = ''
  for (const i of inlines) {
    if (i.k === 'text') out += i.v
    else if (i.k === 'interp') out += '…'
    else if (i.k === 'if') out += '…'
    else if (i.k === 'link') out += labelText(i.body)
    else if (i.k === 'break') out += ' '
  }
  return out.replace(/\s+/g, ' ').trim()
}

function collect(nodes: readonly Node[], file: string, out: CatalogueOption[]): void {
  for (const n of nodes) {
    if (n.kind === 'group') {
      for (const o of n.options) {
        out.push({
          key: `${file}:${n.id}`,
          id: o.id,
          text: labelText(o.label),
          fallback: o.fallback,
          path: file,
          line: o.pos.line,
          column: o.pos.column,
        })
        collect(o.body, file, out)
      }
    } else if (n.kind === 'if') {
      for (const b of n.branches) collect(b.body, file, out)
      collect(n.otherwise, file, out)
    }
  }
}

/** Lists every option of a part in source order, nested groups included. */
export function catalogueOptions(ast: PartAst): CatalogueOption[] {
  const out: CatalogueOption[] = []
  collect(ast.body, ast.file, out)
  return out
}
