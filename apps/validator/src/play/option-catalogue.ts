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

/** One section (heading) of the story, by its visit-count key. */
export interface CatalogueSection {
  /** The state key of its visit count (`story/0001-inn.sty:bar@visits`). */
  key: string
  id: string
  /** The heading's literal text (empty for a silent section). */
  text: string
  path: string
  line: number
  column: number
}

function collectSections(nodes: readonly Node[], file: string, out: CatalogueSection[]): void {
  for (const n of nodes) {
    if (n.kind === 'heading') {
      out.push({
        key: `${file}:${n.id}@visits`,
        id: n.id,
        text: labelText(n.label),
        path: file,
        line: n.pos.line,
        column: n.pos.column,
      })
    } else if (n.kind === 'if') {
      for (const b of n.branches) collectSections(b.body, file, out)
      collectSections(n.otherwise, file, out)
    }
  }
}

/** Lists every section (heading, silent ones included) of a part in source order. */
export function catalogueSections(ast: PartAst): CatalogueSection[] {
  const out: CatalogueSection[] = []
  collectSections(ast.body, ast.file, out)
  return out
}
