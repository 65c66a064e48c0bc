/**
 * Compiles a part's syntax tree (or a passage body) to a flat instruction list with resolved jump
 * addresses, so the machine runs a tight loop with no tree walking. Internal.
 */
import type { IdKind, Node, OptionNode, Pos, SetStmt } from '../ast.ts'
import { resolveTarget } from '../paths.ts'
import { altSpec } from './alts.ts'
import { type COption, GLUE, type Instr, Op } from './code.ts'
import { add, arith, compileExpr, literalOf, localKey, sectionVisitsKey, subtract, tempKey } from './expr.ts'
import { compileInline } from './render.ts'
import { ItemSet } from './sets.ts'
import type { Value } from './types.ts'
import { truthy, typeName } from './values.ts'
import { type Ev, intern, type ModuleScope, type Ref, type Scope, type Vm } from './vm.ts'

/** The archive target (`path[:id]`) of a gate or link written in `file` (section 3). */
function archiveTarget(file: string, target: string): string {
  const r = resolveTarget(file, target)
  return r.id === undefined ? r.part : `${r.part}:${r.id}`
}

/** Compiles `{set}` (and the reads `+=`/`-=` need) in `scope`. */
export function compileSet(stmt: SetStmt, scope: Scope): (m: Vm) => void {
  const { name, op, pos } = stmt
  const e = compileExpr(stmt.e, scope)
  const { file } = scope
  const combine =
    op === '='
      ? undefined
      : op === '+='
        ? (m: Vm, cur: Value, v: Value): Value => {
            // numbers first, inline; everything else (and an overflow) through `add`
            if (typeof cur === 'number' && typeof v === 'number') {
              const r = cur + v
              if (Number.isFinite(r)) return r
            }
            return add(m, cur, v, file, pos)
          }
        : (m: Vm, cur: Value, v: Value): Value => {
            if (cur instanceof ItemSet || v instanceof ItemSet) return subtract(m, cur, v, file, pos)
            if (typeof cur !== 'number' || typeof v !== 'number') {
              m.report(
                'story/type-error',
                `'-=' needs numbers, not ${typeName(cur)} and ${typeName(v)}`,
                file,
                pos,
              )
              return false
            }
            return arith(m, '-', cur, v, file, pos)
          }
  const p = scope.params.indexOf(name)
  if (p >= 0 && scope.refs?.[p])
    return (m) => {
      const v = e(m)
      const ref = m.frame[p] as unknown as Ref
      ref.set(combine ? combine(m, ref.get() ?? false, v) : v)
    }
  if (p >= 0)
    return (m) => {
      const v = e(m)
      m.frame[p] = combine ? combine(m, m.frame[p] ?? false, v) : v
    }
  const temp = tempKey(name, scope)
  if (temp !== undefined) {
    const tkey = intern(temp)
    return (m) => {
      const v = e(m)
      if (!combine) {
        m.temps.set(tkey, v)
        return
      }
      let cur = m.temps.get(tkey)
      if (cur === undefined) {
        m.report('story/uninitialised', `'${name}' is changed before its {temp} line has run`, file, pos)
        cur = false
      }
      m.temps.set(tkey, combine(m, cur, v))
    }
  }
  const key = intern(localKey(name, scope) ?? name)
  const isLocal = key !== name
  const isConst = !isLocal && scope.module.consts.has(name)
  const set = (m: Vm) => {
    const v = e(m)
    if (isConst && !m.vars.has(name)) {
      m.report('story/const-assign', `'${name}' is a module constant and cannot be assigned`, file, pos)
      return
    }
    if (!combine) {
      m.vars.set(key, v)
      return
    }
    let cur = m.vars.get(key)
    if (cur === undefined) {
      m.report(
        isLocal ? 'story/uninitialised' : 'story/undefined',
        isLocal ? `'${name}' is changed before its {local} line has run` : `'${name}' has no value yet`,
        file,
        pos,
      )
      cur = false
    }
    m.vars.set(key, combine(m, cur, v))
  }
  // `{set gold += 1}`: a number literal added to (or taken from) a number, with no call for the
  // literal; anything else (no value yet, another type, an overflow) as above.
  const lit = literalOf(stmt.e)
  const k = lit && typeof lit.v === 'number' && !isConst ? lit.v : undefined
  if (k !== undefined && op === '+=')
    return (m) => {
      const cur = m.vars.get(key)
      if (typeof cur === 'number') {
        const r = cur + k
        if (Number.isFinite(r)) {
          m.vars.set(key, r)
          return
        }
      }
      set(m)
    }
  if (k !== undefined && op === '-=')
    return (m) => {
      const cur = m.vars.get(key)
      if (typeof cur === 'number') {
        const r = cur - k
        if (Number.isFinite(r)) {
          m.vars.set(key, r)
          return
        }
      }
      set(m)
    }
  return set
}

/** Compiles a declaration-block default: assigns only while the name is undefined (clarification 15). */
export function compileDefault(stmt: SetStmt, scope: Scope): (m: Vm) => void {
  if (stmt.op !== '=') return () => {}
  const e = compileExpr(stmt.e, scope)
  const name = intern(stmt.name)
  return (m) => {
    if (!m.vars.has(name)) m.vars.set(name, e(m))
  }
}

/** The context a body is compiled in. */
export interface BodyEnv {
  file: string
  module: ModuleScope
  params: readonly string[]
  /** True for a part; false for a passage body. */
  part: boolean
  /** True when the file is read at 1.1: paragraphs are held for glue and mid-line jumps, and its ids count visits and turns. */
  v11?: boolean
}

/** The result of compiling a body. */
export interface CompiledBody {
  code: Instr[]
  /** Heading, anchor and named-group ids → addresses. */
  ids: Map<string, number>
  /** The source line of each instruction (0 for the final `eof`/`ret`), for messages only. */
  lines: number[]
  /** 1.1: the decision key of each explicit option id (`visits(#option)` counts its choices). */
  optionGroups: Map<string, string>
}

/** Compiles a part body (ending in `eof`) or a passage body (ending in `ret`). */
export function compileBody(nodes: Node[], env: BodyEnv): CompiledBody {
  return new Compiler(nodes, env).result
}

class Compiler {
  readonly code: Instr[] = []
  readonly ids = new Map<string, number>()
  readonly lines: number[] = []
  readonly result: CompiledBody
  private readonly locals = new Map<string, Set<string>>()
  /** 1.1: the `{temp}` names per section (part code). */
  private readonly temps = new Map<string, Set<string>>()
  /** 1.1: the section each id stands in, when the part has section temps (cross-section jumps clear them). */
  private readonly idSection = new Map<string, string>()
  private readonly headings = new Set<string>()
  private readonly kinds = new Map<string, IdKind>()
  private readonly optionGroups = new Map<string, string>()
  /**
   * Jumps to resolve once every id has its address; `patch`: set the instruction's `to` instead of
   * replacing it; `from`: the section of a jump that may leave it (its `{temp}`s go).
   */
  private readonly fixups: Array<{ at: number; id: string; pos: Pos; patch?: boolean; from?: string }> = []
  private stack: Array<{ level: number; id: string }> = []
  private scope: Scope
  private readonly groupCount = new Map<string, number>()
  private readonly tunnelCount = new Map<string, number>()

  constructor(
    nodes: Node[],
    readonly env: BodyEnv,
  ) {
    if (env.part) this.prepass(nodes)
    else this.params = [...env.params, ...collectTemps(nodes).filter((t) => !env.params.includes(t))]
    this.scope = this.makeScope()
    this.nodes(nodes)
    this.code.push(env.part ? { op: Op.EOF } : { op: Op.RET })
    for (const f of this.fixups) {
      const to = this.ids.get(f.id)
      if (to === undefined) this.code[f.at] = { op: Op.BADJUMP, id: f.id, file: env.file, pos: f.pos }
      else if (f.patch) (this.code[f.at] as { to: number }).to = to
      else this.code[f.at] = { op: Op.GOTO, to }
      // 1.1: a jump into another section leaves this one: its {temp}s go (a heading clears them itself)
      if (f.from !== undefined && this.idSection.get(f.id) !== f.from)
        this.code[f.at - 1] = { op: Op.EXEC, run: clearTemps }
    }
    for (let i = 0; i < this.code.length; i++) this.lines[i] ??= 0
    this.result = { code: this.code, ids: this.ids, lines: this.lines, optionGroups: this.optionGroups }
  }

  /** A passage's parameters, then its `{temp}` slots. */
  private params: readonly string[] = []

  private makeScope(): Scope {
    const { file, module, params, v11 } = this.env
    if (!this.env.part) {
      if (this.params.length === params.length) return { file, module, params, v11 }
      return { file, module, params: this.params, firstTemp: params.length, v11 }
    }
    const chain = this.stack.map((s) => s.id).reverse()
    const scope: Scope = { file, module, params, chain, locals: this.locals, headings: this.headings }
    if (v11) {
      scope.v11 = true
      scope.kinds = this.kinds
      scope.optionGroups = this.optionGroups
    }
    if (this.temps.size) scope.temps = this.temps
    return scope
  }

  /** The section the compiler is in. */
  private section(): string {
    return this.stack[this.stack.length - 1]?.id ?? 'h0'
  }

  private enterHeading(level: number, id: string): void {
    while (this.stack.length && this.stack[this.stack.length - 1]!.level >= level) this.stack.pop()
    this.stack.push({ level, id })
  }

  /** Collects heading ids and the locals of each section before compiling (locals are visible section-wide). */
  private prepass(nodes: Node[]): void {
    const walk = (list: Node[]) => {
      for (const n of list) {
        if (n.kind === 'heading') {
          this.headings.add(n.id)
          this.kinds.set(n.id, 'heading')
          this.enterHeading(n.level, n.id)
        } else if (n.kind === 'anchor') this.kinds.set(n.id, 'anchor')
        else if (n.kind === 'temp') {
          const id = this.stack[this.stack.length - 1]?.id ?? 'h0'
          let set = this.temps.get(id)
          if (!set) {
            set = new Set()
            this.temps.set(id, set)
          }
          set.add(n.name)
        } else if (n.kind === 'local') {
          const s = this.stack[this.stack.length - 1]
          if (s) {
            let set = this.locals.get(s.id)
            if (!set) {
              set = new Set()
              this.locals.set(s.id, set)
            }
            set.add(n.name)
          }
        } else if (n.kind === 'if') {
          for (const b of n.branches) walk(b.body)
          walk(n.otherwise)
        } else if (n.kind === 'alt') for (const b of n.branches) walk(b)
        else if (n.kind === 'group') {
          // implicit group ids are filled by the parser's resolution pass
          if (n.explicitId) this.kinds.set(n.id, 'group')
          for (const o of n.options) {
            if (o.explicitId) {
              this.kinds.set(o.id, 'option')
              this.optionGroups.set(o.id, intern(`${this.env.file}:${n.id}`))
            }
            walk(o.body)
          }
        }
      }
    }
    walk(nodes)
    this.stack = []
  }

  private inline(label: Parameters<typeof compileInline>[0]) {
    return compileInline(
      label,
      this.scope,
      (t) => archiveTarget(this.env.file, t),
      (s) => compileSet(s, this.scope),
    )
  }

  private nodes(list: Node[]): void {
    for (const n of list) {
      const at = this.code.length
      this.node(n)
      // nested nodes have named their own instructions already
      for (let i = at; i < this.code.length; i++) this.lines[i] ??= n.pos.line
    }
  }

  private node(n: Node): void {
    const code = this.code
    const { file } = this.env
    switch (n.kind) {
      case 'paragraph': {
        const inl =
          n.lines.length === 1
            ? n.lines[0]!
            : n.lines.flatMap((l, i) => (i ? [{ k: 'text' as const, v: ' ' }, ...l] : l))
        if (!this.env.v11) {
          code.push({ op: Op.PARA, inline: this.inline(inl), tags: n.tags })
          return
        }
        code.push({
          op: Op.PARA,
          inline: this.inline(inl),
          tags: n.tags,
          hold: true,
          start: n.glue?.start ? GLUE[n.glue.start] : GLUE.none,
          end: n.glue?.end ? GLUE[n.glue.end] : GLUE.none,
        })
        return
      }
      case 'heading': {
        this.enterHeading(n.level, n.id)
        this.scope = this.makeScope()
        this.ids.set(n.id, code.length)
        if (this.temps.size) this.idSection.set(n.id, n.id)
        const key = intern(`${file}:${n.id}@visits`)
        code.push({
          op: Op.HEAD,
          level: n.level,
          id: n.id,
          inline: this.inline(n.label),
          tags: n.tags,
          silent: n.silent,
          key,
          turnKey: this.env.v11 ? intern(`${file}:${n.id}@turn`) : undefined,
        })
        return
      }
      case 'anchor':
        this.ids.set(n.id, code.length)
        // 1.1: an anchor counts its visits and turns (1.0 compiles no code for it)
        if (this.env.v11)
          code.push({
            op: Op.MARK,
            visitsKey: intern(`${file}:${n.id}@visits`),
            turnKey: intern(`${file}:${n.id}@turn`),
          })
        if (this.temps.size) this.idSection.set(n.id, this.section())
        return
      case 'alt': {
        const ins: Extract<Instr, { op: typeof Op.ALT }> = {
          op: Op.ALT,
          alt: altSpec(file, n.id, n.mode, n.branches.length),
          to: [],
          after: -1,
        }
        code.push(ins)
        const ends: number[] = []
        for (const b of n.branches) {
          ins.to.push(code.length)
          this.nodes(b)
          ends.push(code.length)
          code.push({ op: Op.GOTO, to: -1 })
        }
        ins.after = code.length
        for (const at of ends) (code[at] as { to: number }).to = code.length
        return
      }
      case 'jump':
        if (n.target === null) code.push({ op: n.done ? Op.DONE : Op.END })
        else if (this.temps.size) {
          // room for the EXEC that clears the section's temps when the target is in another section
          code.push({ op: Op.GOTO, to: code.length + 1 })
          this.fixups.push({ at: code.length, id: n.target, pos: n.pos, from: this.section() })
          code.push({ op: Op.GOTO, to: -1 })
        } else {
          this.fixups.push({ at: code.length, id: n.target, pos: n.pos })
          code.push({ op: Op.GOTO, to: -1 })
        }
        return
      case 'gate':
        code.push({ op: Op.GATE, target: archiveTarget(file, n.target) })
        return
      case 'tunnel': {
        // the call's id: the k-th tunnel call of its section, as groups are numbered
        const section = this.stack[this.stack.length - 1]?.id ?? 'h0'
        const k = (this.tunnelCount.get(section) ?? 0) + 1
        this.tunnelCount.set(section, k)
        const id = intern(`${file}:${section}->${k}`)
        if (!n.part) this.fixups.push({ at: code.length, id: n.target, pos: n.targetPos, patch: true })
        code.push({ op: Op.TUNNEL, id, to: -1, target: n.part ? archiveTarget(file, n.target) : undefined })
        return
      }
      case 'tunnel-return':
        if (n.target !== undefined && !n.part)
          this.fixups.push({ at: code.length, id: n.target, pos: n.targetPos!, patch: true })
        code.push({
          op: Op.TRET,
          to: -1,
          target: n.target !== undefined && n.part ? archiveTarget(file, n.target) : undefined,
          file,
          pos: n.pos,
        })
        return
      case 'thread':
        this.fixups.push({ at: code.length, id: n.target, pos: n.targetPos, patch: true })
        code.push({ op: Op.THREAD, to: -1 })
        return
      case 'media':
        code.push({ op: Op.MEDIA, path: n.path, alt: n.alt, media: n.media, tags: n.tags, pos: n.pos })
        return
      case 'group':
        this.group(n)
        return
      case 'set': {
        code.push({ op: Op.EXEC, run: compileSet(n.stmt, this.scope) })
        return
      }
      case 'local': {
        const local = localKey(n.name, this.scope)
        if (local === undefined) return // `{local}` in h0: story/local-placement at parse time
        const key = intern(local)
        const e = compileExpr(n.e, this.scope)
        const { name, pos } = n
        code.push({
          op: Op.EXEC,
          run: (m) => {
            if (m.vars.has(key)) return
            if (m.vars.has(name))
              m.report('story/shadowing', `the local '${name}' hides the story variable '${name}'`, file, pos)
            m.vars.set(key, e(m))
          },
        })
        return
      }
      case 'if': {
        const ends: number[] = []
        for (const b of n.branches) {
          const jf: Extract<Instr, { op: typeof Op.JF }> = {
            op: Op.JF,
            cond: compileExpr(b.cond, this.scope),
            to: -1,
          }
          code.push(jf)
          this.nodes(b.body)
          const g: Instr = { op: Op.GOTO, to: -1 }
          ends.push(code.length)
          code.push(g)
          jf.to = code.length
        }
        this.nodes(n.otherwise)
        for (const at of ends) (code[at] as { to: number }).to = code.length
        return
      }
      case 'insert':
        code.push({
          op: Op.INSERT,
          name: n.name,
          def: this.env.module.passages.get(n.name),
          args: n.args.map((a) => compileExpr(a, this.scope)),
          visitsKey: sectionVisitsKey(this.scope),
          inPart: this.env.part,
          file,
          pos: n.pos,
        })
        return
      case 'call':
        code.push({
          op: Op.CALL,
          ns: n.ns,
          fn: n.fn,
          args: n.args.map((a) => compileExpr(a, this.scope)),
          file,
          pos: n.pos,
        })
        return
      case 'temp':
        code.push({
          op: Op.EXEC,
          run: compileSet({ name: n.name, op: '=', e: n.e, pos: n.pos, namePos: n.namePos }, this.scope),
        })
        return
      case 'tags':
      case 'return': // only in block functions (compileFnBody)
        return
    }
  }

  private group(n: Extract<Node, { kind: 'group' }>): void {
    const code = this.code
    const section = this.stack[this.stack.length - 1]?.id ?? 'h0'
    const k = (this.groupCount.get(section) ?? 0) + 1
    this.groupCount.set(section, k)
    const id = n.id || `${section}@${k}`
    if (n.explicitId) this.ids.set(id, code.length)
    if (n.explicitId && this.temps.size) this.idSection.set(id, section)
    const instr: Extract<Instr, { op: typeof Op.GROUP }> = {
      op: Op.GROUP,
      key: intern(`${this.env.file}:${id}`),
      id,
      options: [],
      after: -1,
    }
    if (n.ifs)
      instr.ifs = n.ifs.map((f) => ({
        conds: f.conds.map((c) => compileExpr(c, this.scope)),
        at: f.at,
        parent: f.parent?.if ?? -1,
        parentBranch: f.parent?.branch ?? 0,
      }))
    // 1.1: a named group counts its arrivals and turns (`visits(#group)`, `turns(#group)`)
    if (this.env.v11 && n.explicitId) {
      instr.visitsKey = intern(`${this.env.file}:${id}@visits`)
      instr.turnKey = intern(`${this.env.file}:${id}@turn`)
    }
    code.push(instr)
    const exits: number[] = []
    for (const o of n.options) instr.options.push(this.option(o, exits))
    instr.after = code.length
    for (const at of exits) (code[at] as { to: number }).to = code.length
  }

  private option(o: OptionNode, exits: number[]): COption {
    const scope = this.scope
    const stack = this.stack.slice()
    const c: COption = {
      id: o.id,
      sticky: o.sticky,
      fallback: o.fallback,
      guard: o.guard ? compileExpr(o.guard, scope) : undefined,
      label: this.inline(o.label),
      tags: o.tags,
      body: this.code.length,
      shown: undefined,
      turnKey: this.env.v11 && o.explicitId ? intern(`${this.env.file}:${o.id}@turn`) : undefined,
    }
    if (o.under) {
      c.under = o.under.if
      c.branch = o.under.branch
    }
    const text = c.label.constant?.text
    if (text !== undefined)
      c.shown = o.sticky ? { id: o.id, text, tags: o.tags, sticky: true } : { id: o.id, text, tags: o.tags }
    // 1.1 choice text: the chosen option's text (before and after its brackets) is shown first
    if (o.echo && (o.echo.keep > 0 || o.echo.after.length > 0))
      this.node({
        kind: 'paragraph',
        pos: o.pos,
        lines: [[...o.label.slice(0, o.echo.keep), ...o.echo.after]],
        tags: [],
      })
    this.nodes(o.body)
    if (o.jump) this.node(o.jump)
    else {
      exits.push(this.code.length)
      this.code.push({ op: Op.GOTO, to: -1 })
    }
    // A heading inside a body changes the section; the options after it stay in the group's section.
    this.scope = scope
    this.stack = stack
    return c
  }
}

/** 1.1: leaves a section: its `{temp}`s go. */
function clearTemps(m: Vm): void {
  m.temps.clear()
}

/** 1.1: the `{temp}` names of a function or passage body, in order of first appearance. */
function collectTemps(nodes: readonly Node[], out: string[] = []): string[] {
  for (const n of nodes) {
    if (n.kind === 'temp' && !out.includes(n.name)) out.push(n.name)
    else if (n.kind === 'if') {
      for (const b of n.branches) collectTemps(b.body, out)
      collectTemps(n.otherwise, out)
    } else if (n.kind === 'group') for (const o of n.options) collectTemps(o.body, out)
  }
  return out
}

/** A statement of a block function: the value of the `{return}` it reached, or `undefined`. */
type Stmt = (m: Vm) => Value | undefined

/**
 * 1.1: compiles a block function's body (`{temp}`, `{set}`, `{if}`, `{return}`) to one closure.
 * Its frame holds the arguments, then one slot per `{temp}`; a `ref` parameter holds a `Ref`. A
 * body that ends without `{return e}` gives `""` (it prints nothing, as an ink function without a
 * return does).
 */
export function compileFnBody(
  nodes: readonly Node[],
  env: { file: string; module: ModuleScope; params: readonly string[]; refs: readonly boolean[] },
): Ev {
  const temps = collectTemps(nodes).filter((t) => !env.params.includes(t))
  const scope: Scope = {
    file: env.file,
    module: env.module,
    params: [...env.params, ...temps],
    firstTemp: env.params.length,
    refs: env.refs,
  }
  const block = compileStmts(nodes, scope)
  return (m) => block(m) ?? ''
}

function compileStmts(nodes: readonly Node[], scope: Scope): Stmt {
  const stmts: Stmt[] = []
  for (const n of nodes) {
    if (n.kind === 'set' || n.kind === 'temp') {
      const run = compileSet(
        n.kind === 'set' ? n.stmt : { name: n.name, op: '=', e: n.e, pos: n.pos, namePos: n.namePos },
        scope,
      )
      stmts.push((m) => {
        run(m)
        return undefined
      })
    } else if (n.kind === 'return') {
      const e = n.e ? compileExpr(n.e, scope) : undefined
      stmts.push(e ? (m) => e(m) : () => '')
    } else if (n.kind === 'if') {
      const conds = n.branches.map((b) => compileExpr(b.cond, scope))
      const bodies = n.branches.map((b) => compileStmts(b.body, scope))
      const otherwise = compileStmts(n.otherwise, scope)
      stmts.push((m) => {
        for (let i = 0; i < conds.length; i++) if (truthy(conds[i]!(m))) return bodies[i]!(m)
        return otherwise(m)
      })
    }
  }
  return (m) => {
    for (let i = 0; i < stmts.length; i++) {
      const r = stmts[i]!(m)
      if (r !== undefined) return r
    }
    return undefined
  }
}
