/**
 * What the language server needs to know about one part, gathered in one walk of its syntax
 * tree: the ids it defines (with their lines), the gates and links it writes, the variables it
 * assigns, the modules it uses and its headings. Kept per part and reused until the part changes,
 * so a keystroke re-walks only the part being edited.
 */
import type { Expr, Inline, Node, PartAst, Pos, SetStmt } from '@spkg/story'

/** An id a part defines: what it names and where. */
export interface DefinedId {
  id: string
  kind: 'heading' | 'anchor' | 'group' | 'option'
  explicit: boolean
  pos: Pos
}

/** A gate or link target as written, with the position of its first character. */
export interface WrittenTarget {
  target: string
  pos: Pos
  gate: boolean
}

/** A heading of the part, for document symbols. */
export interface HeadingInfo {
  id: string
  level: number
  pos: Pos
  silent: boolean
}

/**
 * A place a part gives a name a value: a default, a plain `{set n = e}`, a `{local}`, and at 1.1 a
 * `{temp}` (for one visit of its section) or a `{const}` of the part (visible in that part only).
 */
export interface VariableDecl {
  name: string
  kind: 'default' | 'set' | 'local' | 'temp' | 'const'
  /** The name's position. */
  pos: Pos
  /** The value's type when the expression is a literal (`number`, `string`, `boolean`, `list`). */
  type?: string
  /** 1.1: the set declaration the value may be made of (`Tools(rope)`, `Tools.rope`, `Tools()`). */
  setOf?: string
}

/** The declaration name of a value written as a set (`Tools(…)`, `Tools.rope`), if it may be one. */
export function setCandidate(e: {
  k: string
  callee?: string
  e?: { k: string; name?: string }
}): string | undefined {
  if (e.k === 'call') return e.callee
  if (e.k === 'field' && e.e?.k === 'name') return e.e.name
  return undefined
}

/** The type of a literal expression, or undefined when only running it would tell. */
export function literalType(e: { k: string }): string | undefined {
  return { num: 'number', dice: 'number', str: 'string', bool: 'boolean', list: 'list' }[e.k]
}

/** The facts of one part. */
export interface PartIndex {
  ids: DefinedId[]
  targets: WrittenTarget[]
  /** Names given a value with a plain `{set n = e}` (defaults included). */
  declared: Set<string>
  /** Names of `{local}` variables. */
  locals: Set<string>
  /** Every default, plain `{set n = e}` and `{local}`, in document order (for hover). */
  decls: VariableDecl[]
  /** 1.1: names of the part's own `{const}` declarations (visible in that part only). */
  consts: Set<string>
  /** 1.1: names of the part's own set declarations (`{items Tools = …}`). */
  sets: Set<string>
  /** 1.1: the part's own set declarations, with their items (visible in that part only). */
  items: Array<{ name: string; items: string[]; pos: Pos }>
  uses: Array<{ module: string; pos: Pos }>
  headings: HeadingInfo[]
  /** The last top-level line is a jump, a gate or `->->`: the part never falls through to the next one. */
  endsWithJump: boolean
}

/** Records a plain `{set n = e}` (a default or a body assignment): a declaration of `n`. */
function declare(index: PartIndex, stmt: SetStmt, kind: 'default' | 'set'): void {
  index.declared.add(stmt.name)
  index.decls.push({
    name: stmt.name,
    kind,
    pos: stmt.namePos,
    type: literalType(stmt.e),
    setOf: setCandidate(stmt.e),
  })
}

/** Walks a parsed part once and returns its {@link PartIndex}. */
export function indexPart(ast: PartAst): PartIndex {
  const index: PartIndex = {
    ids: [],
    targets: [],
    declared: new Set(),
    locals: new Set(),
    decls: [],
    consts: new Set(ast.declarations.consts?.map((c) => c.name)),
    sets: new Set(ast.declarations.items?.map((d) => d.name)),
    items: (ast.declarations.items ?? []).map((d) => ({
      name: d.name,
      items: d.items.map((i) => i.name),
      pos: d.namePos,
    })),
    uses: ast.declarations.uses.map((u) => ({ module: u.module, pos: u.namePos })),
    headings: [],
    endsWithJump: false,
  }
  for (const d of ast.declarations.defaults) {
    if (d.op === '=') declare(index, d, 'default')
  }
  for (const c of ast.declarations.consts ?? [])
    index.decls.push({ name: c.name, kind: 'const', pos: c.namePos, type: literalType(c.e) })
  walkNodes(ast.body, index)
  const last = ast.body[ast.body.length - 1]
  index.endsWithJump = last?.kind === 'jump' || last?.kind === 'gate' || last?.kind === 'tunnel-return'
  return index
}

/** The `{temp}`s of a body (a module function's or passage's), nested ones included, in order. */
export function tempsIn(nodes: Node[]): Array<{ name: string; namePos: Pos; e: Expr }> {
  const out: Array<{ name: string; namePos: Pos; e: Expr }> = []
  const walk = (list: Node[]) => {
    for (const n of list) {
      if (n.kind === 'temp') out.push(n)
      else if (n.kind === 'if') {
        for (const b of n.branches) walk(b.body)
        walk(n.otherwise)
      } else if (n.kind === 'alt') for (const b of n.branches) walk(b)
      else if (n.kind === 'group') for (const o of n.options) walk(o.body)
    }
  }
  walk(nodes)
  return out
}

function walkNodes(nodes: Node[], index: PartIndex): void {
  for (const n of nodes) {
    switch (n.kind) {
      case 'heading':
        index.ids.push({ id: n.id, kind: 'heading', explicit: n.explicitId, pos: n.pos })
        index.headings.push({ id: n.id, level: n.level, pos: n.pos, silent: n.silent })
        break
      case 'anchor':
        index.ids.push({ id: n.id, kind: 'anchor', explicit: true, pos: n.pos })
        break
      case 'gate':
        index.targets.push({ target: n.target, pos: n.targetPos, gate: true })
        break
      case 'tunnel':
      case 'tunnel-return':
        // 1.1: a tunnel into another part, or a return that goes on there, names a part as a gate does
        if (n.part && n.target !== undefined && n.targetPos)
          index.targets.push({ target: n.target, pos: n.targetPos, gate: true })
        break
      case 'paragraph':
        for (const line of n.lines) walkInline(line, index)
        break
      case 'set':
        if (n.stmt.op === '=') declare(index, n.stmt, 'set')
        break
      case 'local':
        index.locals.add(n.name)
        index.decls.push({ name: n.name, kind: 'local', pos: n.namePos, type: literalType(n.e) })
        break
      case 'temp':
        index.decls.push({
          name: n.name,
          kind: 'temp',
          pos: n.namePos,
          type: literalType(n.e),
          setOf: setCandidate(n.e),
        })
        break
      case 'if':
        for (const b of n.branches) walkNodes(b.body, index)
        walkNodes(n.otherwise, index)
        break
      case 'alt':
        for (const b of n.branches) walkNodes(b, index)
        break
      case 'group':
        index.ids.push({ id: n.id, kind: 'group', explicit: n.explicitId, pos: n.pos })
        for (const o of n.options) {
          if (o.explicitId) index.ids.push({ id: o.id, kind: 'option', explicit: true, pos: o.pos })
          walkInline(o.label, index)
          if (o.echo) walkInline(o.echo.after, index)
          walkNodes(o.body, index)
        }
        break
      default:
        break
    }
  }
}

function walkInline(inlines: Inline[], index: PartIndex): void {
  for (const i of inlines) {
    if (i.k === 'link') {
      index.targets.push({ target: i.target, pos: i.targetPos, gate: false })
      walkInline(i.body, index)
    } else if (i.k === 'set') {
      if (i.stmt.op === '=') declare(index, i.stmt, 'set')
    } else if (i.k === 'if') {
      for (const b of i.branches) walkInline(b.body, index)
      walkInline(i.otherwise, index)
    } else if (i.k === 'alt') for (const item of i.items) walkInline(item, index)
  }
}
