/**
 * Every option of a parsed part, so a random walk can report the ones it never saw offered.
 */
import type { Inline, JumpNode, Node, PartAst } from '@spkg/story'

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
    else if (i.k === 'if' || i.k === 'alt') out += '…'
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
    } else if (n.kind === 'alt') for (const b of n.branches) collect(b, file, out)
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
    } else if (n.kind === 'alt') for (const b of n.branches) collectSections(b, file, out)
  }
}

/** Lists every section (heading, silent ones included) of a part in source order. */
export function catalogueSections(ast: PartAst): CatalogueSection[] {
  const out: CatalogueSection[] = []
  collectSections(ast.body, ast.file, out)
  return out
}

/** One `-> END` of the story, with the section and the options (outermost first) it sits in. */
export interface CatalogueEnd {
  path: string
  /** The section it ends in (`h0` before any heading). */
  section: string
  line: number
  column: number
  /** The options whose bodies hold it, outermost first, as `<decision key>\u0000<option id>`. */
  within: string[]
}

/** Where every option sits: `<decision key>\u0000<option id>` to the options holding it, outermost first, itself last. */
export type OptionNesting = Map<string, string[]>

/** `-> END` (not `-> DONE`, 1.1, which pauses on what threads gathered). */
const isEnd = (j: JumpNode) => j.target === null && !j.done

function collectEnds(
  nodes: readonly Node[],
  file: string,
  start: string,
  within: string[],
  ends: CatalogueEnd[],
  nesting: OptionNesting,
): string {
  let section = start
  const end = (pos: { line: number; column: number }, inside: string[]) =>
    ends.push({ path: file, section, line: pos.line, column: pos.column, within: inside })
  for (const n of nodes) {
    if (n.kind === 'heading') section = n.id
    else if (n.kind === 'jump' && isEnd(n)) end(n.pos, within)
    else if (n.kind === 'group') {
      for (const o of n.options) {
        const chain = [...within, `${file}:${n.id}\u0000${o.id}`]
        nesting.set(chain.at(-1)!, chain)
        if (o.jump && isEnd(o.jump)) end(o.jump.pos, chain)
        // A heading in an option body opens a section for that body only.
        collectEnds(o.body, file, section, chain, ends, nesting)
      }
    } else if (n.kind === 'if') {
      for (const b of n.branches) collectEnds(b.body, file, section, within, ends, nesting)
      collectEnds(n.otherwise, file, section, within, ends, nesting)
    } else if (n.kind === 'alt')
      for (const b of n.branches) collectEnds(b, file, section, within, ends, nesting)
  }
  return section
}

/**
 * Every `-> END` of a part (on its own line or on an option line) with its section and enclosing
 * options, and the nesting of the part's options: what a random walk needs to tell which ending a
 * walk reached from the section it ended in and the option chosen last there.
 */
export function catalogueEnds(ast: PartAst): { ends: CatalogueEnd[]; nesting: OptionNesting } {
  const ends: CatalogueEnd[] = []
  const nesting: OptionNesting = new Map()
  collectEnds(ast.body, ast.file, 'h0', [], ends, nesting)
  return { ends, nesting }
}
