/**
 * Checks of names across the package: undeclared variables, calls and inserts of names no
 * `{use}`d module declares, wrong argument counts, assignments to constants, and locals that
 * hide story variables. Internal.
 */

import type { Expr, Node, PartAst, Pos, SetStmt } from '../ast.ts'
import { BUILTINS, describeArity } from '../builtins.ts'
import { inlineSets, nodeExprs, optionExprs, visitNodes, walkExpr } from '../parse/walk.ts'
import { didYouMean } from '../suggest.ts'
import { type CheckContext, PHASE, type Scope } from './context.ts'
import { SetTypes } from './sets.ts'

/** One use of a name, with the chain of sections (innermost last) it appears in. */
type Use =
  | { k: 'read'; name: string; pos: Pos; sections: string[] }
  | { k: 'set'; stmt: SetStmt; sections: string[] }
  | { k: 'local'; name: string; pos: Pos; section: string }
  /** 1.1: a `{temp}` of a part's section (in a function or passage body it is a parameter slot). */
  | { k: 'temp'; name: string; section: string }

/** A file's uses of names and the scope it sees. */
interface FileUses {
  file: string
  scope: Scope
  /** Parameters in scope (fn and passage bodies). */
  params: Set<string>
  uses: Use[]
  /** The sub-expressions checked by {@link checkCalls} (calls, dice, division), in walk order. */
  checked: Expr[]
  inserts: Array<{ name: string; args: number; pos: Pos }>
  calls: Array<{ ns: string; fn: string; args: number; pos: Pos }>
}

/** Collects the uses in `nodes`, tracking the heading sections they sit in. */
function collect(fu: FileUses, nodes: Node[], defaults: SetStmt[] = [], body = false): void {
  for (const d of defaults) fu.uses.push({ k: 'set', stmt: d, sections: ['h0'] })
  for (const d of defaults) addExpr(fu, d.e, ['h0'])
  let stack: Array<{ level: number; id: string }> = []
  // the section chain, rebuilt only when a heading or the end of an option body changes it;
  // uses share it (nothing mutates it)
  let secs = ['h0']
  const outer: Array<{ stack: typeof stack; secs: string[] }> = []
  visitNodes(nodes, {
    node(n) {
      if (n.kind === 'heading') {
        while (stack.length && stack[stack.length - 1]!.level >= n.level) stack.pop()
        stack.push({ level: n.level, id: n.id })
        secs = ['h0', ...stack.map((s) => s.id)]
      }
      if (n.kind === 'set') fu.uses.push({ k: 'set', stmt: n.stmt, sections: secs })
      else if (n.kind === 'temp') {
        if (body) fu.params.add(n.name)
        else fu.uses.push({ k: 'temp', name: n.name, section: secs[secs.length - 1]! })
      } else if (n.kind === 'local')
        fu.uses.push({ k: 'local', name: n.name, pos: n.namePos, section: secs[secs.length - 1]! })
      else if (n.kind === 'insert') fu.inserts.push({ name: n.name, args: n.args.length, pos: n.namePos })
      else if (n.kind === 'call') fu.calls.push({ ns: n.ns, fn: n.fn, args: n.args.length, pos: n.namePos })
      else if (n.kind === 'paragraph' || n.kind === 'heading')
        for (const line of n.kind === 'paragraph' ? n.lines : [n.label])
          for (const stmt of inlineSets(line)) fu.uses.push({ k: 'set', stmt, sections: secs })
      for (const e of nodeExprs(n)) addExpr(fu, e, secs)
    },
    option(o) {
      for (const stmt of inlineSets(o.label)) fu.uses.push({ k: 'set', stmt, sections: secs })
      if (o.echo)
        for (const stmt of inlineSets(o.echo.after)) fu.uses.push({ k: 'set', stmt, sections: secs })
      for (const e of optionExprs(o)) addExpr(fu, e, secs)
      outer.push({ stack: stack.slice(), secs })
    },
    leaveOption() {
      ;({ stack, secs } = outer.pop()!)
    },
  })
}

function addExpr(fu: FileUses, root: Expr, sections: string[]): void {
  // 1.1: the item names in `Tools(rope, lamp)` are Tools's, not reads of names
  const items = new Set<Expr>()
  walkExpr(root, (e) => {
    if (items.has(e)) return
    if (e.k === 'name') fu.uses.push({ k: 'read', name: e.name, pos: e.pos, sections })
    else if (e.k === 'call' || e.k === 'dice' || e.k === 'bin') fu.checked.push(e)
    else if (e.k === 'field' && e.e.k === 'name' && fu.scope.sets.has(e.e.name)) fu.checked.push(e)
    if (e.k === 'call') {
      const set = fu.scope.sets.get(e.callee)
      if (set) for (const a of e.args) if (a.k === 'name' && set.items.includes(a.name)) items.add(a)
    }
  })
}

const blank = (file: string, scope: Scope, params: string[] = []): FileUses => ({
  file,
  scope,
  params: new Set(params),
  uses: [],
  checked: [],
  inserts: [],
  calls: [],
})

/** The `{local}` names of `files`, by file and section. */
type Locals = Map<string, Map<string, Set<string>>>

function addLocals(locals: Locals, fu: FileUses): void {
  for (const u of fu.uses)
    if (u.k === 'local' || u.k === 'temp') {
      const bySection = locals.get(fu.file) ?? new Map<string, Set<string>>()
      locals.set(fu.file, bySection)
      const set = bySection.get(u.section) ?? new Set<string>()
      bySection.set(u.section, set)
      set.add(u.name)
    }
}

const isLocal = (locals: Locals, fu: FileUses, name: string, sections: string[]) =>
  fu.params.has(name) || sections.some((s) => locals.get(fu.file)?.get(s)?.has(name))

/** A use whose finding depends on the story variables of the whole package. */
interface Pending {
  k: 'undeclared' | 'shadowing' | 'item'
  file: string
  name: string
  pos: Pos
  seq: number
  /** `item`: the declaration the item belongs to. */
  decl?: string
}

/**
 * The name checks over every part and module. Story variables are those of the whole package
 * (defaults, session keys, `=` assignments anywhere), so {@link NameChecks.scanPart} reports what
 * one part can tell and keeps only the uses whose verdict waits for the other parts;
 * {@link NameChecks.finish} decides those and checks the modules.
 */
export class NameChecks {
  private readonly declared: Set<string>
  private readonly moduleFiles: FileUses[] = []
  private readonly moduleLocals: Locals = new Map()
  private readonly pending: Pending[] = []
  /** Every name some expression reads, in any file (story/unused-variable). */
  private readonly read = new Set<string>()
  /** The first `=` assignment of each story variable: in a part (play order), else in a module. */
  private readonly firstSet = new Map<string, { file: string; pos: Pos; inPart: boolean }>()
  private readonly types: SetTypes

  constructor(
    private readonly cx: CheckContext,
    moduleScopes: Map<string, Scope>,
  ) {
    this.declared = new Set(cx.sessionKeys)
    this.types = new SetTypes(cx.sessionKeys)
    for (const path of cx.moduleOrder) {
      const mod = cx.modules.get(path)!
      const scope = moduleScopes.get(path)!
      const top = blank(path, scope)
      collect(top, [], mod.defaults)
      this.moduleFiles.push(top)
      for (const f of mod.fns) {
        const fu = blank(path, scope, f.params)
        addExpr(fu, f.e, ['h0'])
        this.moduleFiles.push(fu)
      }
      for (const f of mod.blockFns ?? []) {
        const fu = blank(path, scope, f.params)
        collect(fu, f.body, [], true)
        this.moduleFiles.push(fu)
      }
      for (const p of mod.passages) {
        const fu = blank(path, scope, p.params)
        collect(fu, p.body, [], true)
        this.moduleFiles.push(fu)
      }
    }
    for (const fu of this.moduleFiles) addLocals(this.moduleLocals, fu)
    for (const fu of this.moduleFiles) this.declare(this.moduleLocals, fu)
    for (const fu of this.moduleFiles) this.addTypes(this.moduleLocals, fu)
  }

  /** Story variables: `=` assignments that are not to a local or parameter. */
  private declare(locals: Locals, fu: FileUses, inPart = false): void {
    for (const u of fu.uses) {
      if (u.k === 'read') this.read.add(u.name)
      if (u.k === 'set' && u.stmt.op === '=' && !isLocal(locals, fu, u.stmt.name, u.sections)) {
        this.declared.add(u.stmt.name)
        const first = this.firstSet.get(u.stmt.name)
        // (an assignment to a module constant is story/const-assign, not a variable)
        if (fu.scope.consts.has(u.stmt.name)) continue
        if (!first || (inPart && !first.inPart))
          this.firstSet.set(u.stmt.name, { file: fu.file, pos: u.stmt.namePos, inPart })
      }
    }
  }

  /** 1.1: what {@link SetTypes} needs of one file. */
  private addTypes(locals: Locals, fu: FileUses): void {
    const mine = locals.get(fu.file)
    const hidden = (name: string) =>
      fu.params.has(name) || [...(mine?.values() ?? [])].some((s) => s.has(name))
    const sets = fu.uses.flatMap((u) => (u.k === 'set' ? [u.stmt] : []))
    this.types.add({ file: fu.file, scope: fu.scope, hidden }, sets, fu.checked)
  }

  /** Checks the names of one part seen with `scope`. */
  scanPart(file: string, ast: PartAst, scope: Scope): void {
    const cx = this.cx
    const fu = blank(file, scope)
    collect(fu, ast.body, ast.declarations.defaults)
    const locals: Locals = new Map()
    addLocals(locals, fu)
    this.declare(locals, fu, true)
    this.addTypes(locals, fu)
    cx.phase = PHASE.names
    for (const u of fu.uses) {
      if (u.k === 'temp') continue
      if (u.k === 'local') {
        // `declared` only grows: a name declared already is declared at the end too
        if (this.declared.has(u.name)) reportShadowing(cx, file, u.name, u.pos)
        else this.pending.push({ k: 'shadowing', file, name: u.name, pos: u.pos, seq: cx.reserve() })
        continue
      }
      const open = unresolvedUse(cx, fu, u, locals, this.declared)
      if (open)
        this.pending.push({ k: 'undeclared', file, name: open.name, pos: open.pos, seq: cx.reserve() })
      else if (
        u.k === 'read' &&
        fu.scope.items.get(u.name)?.length === 1 &&
        !fu.scope.consts.has(u.name) &&
        !this.declared.has(u.name) &&
        !isLocal(locals, fu, u.name, u.sections)
      )
        // 1.1: an item, unless a later part makes a story variable of that name
        this.pending.push({
          k: 'item',
          file,
          name: u.name,
          pos: u.pos,
          seq: cx.reserve(),
          decl: fu.scope.items.get(u.name)![0]!,
        })
    }
    cx.phase = PHASE.calls
    checkCalls(cx, fu)
  }

  /** Decides the uses kept by {@link NameChecks.scanPart}, then checks the modules. */
  finish(): void {
    const cx = this.cx
    for (const p of this.pending) {
      const isDeclared = this.declared.has(p.name)
      if (p.k === 'shadowing' && isDeclared)
        cx.reportAt(p.seq, PHASE.names, p.file, 'story/shadowing', shadowingMessage(p.name), p.pos)
      else if (p.k === 'undeclared' && !isDeclared)
        cx.reportAt(
          p.seq,
          PHASE.names,
          p.file,
          'story/undeclared',
          undeclaredMessage(p.name, this.declared),
          p.pos,
        )
      else if (p.k === 'item' && isDeclared)
        cx.reportAt(
          p.seq,
          PHASE.names,
          p.file,
          'story/ambiguous-item',
          `'${p.name}' is an item of ${p.decl} and also a story variable; write ${p.decl}.${p.name} for the item`,
          p.pos,
        )
    }
    cx.phase = PHASE.names
    for (const fu of this.moduleFiles) {
      for (const u of fu.uses) {
        if (u.k === 'temp') continue
        if (u.k === 'local') {
          if (this.declared.has(u.name)) reportShadowing(cx, fu.file, u.name, u.pos)
          continue
        }
        const open = unresolvedUse(cx, fu, u, this.moduleLocals, this.declared)
        if (open)
          cx.report(
            fu.file,
            'story/undeclared',
            undeclaredMessage(open.name, [...this.declared, ...fu.scope.consts.keys(), ...fu.params]),
            open.pos,
          )
      }
      checkCalls(cx, fu)
    }
    cx.phase = PHASE.calls
    this.types.finish(cx)
    this.checkUnused()
  }

  /**
   * `story/unused-variable`: a story variable that some `=` assigns and no expression of the
   * package reads (`+=`/`-=` only change it), reported at its first assignment. Session keys and
   * the variables the manifest's tab bar shows are left alone: a host reads them.
   */
  private checkUnused(): void {
    const cx = this.cx
    cx.phase = PHASE.unused
    const session = new Set(cx.sessionKeys)
    for (const [name, at] of this.firstSet) {
      if (this.read.has(name) || session.has(name) || cx.hostVariables.has(name)) continue
      const meant = didYouMean(name, this.read)
      cx.report(
        at.file,
        'story/unused-variable',
        meant
          ? `'${name}' is assigned but nothing in the story reads it${meant}`
          : `'${name}' is assigned but nothing in the story reads it; remove the assignment, or, if a host app reads it, give it a key in session.json`,
        at.pos,
      )
    }
  }
}

const shadowingMessage = (name: string) =>
  `the local '${name}' hides the story variable '${name}' in this section`
const undeclaredMessage = (name: string, declared: Iterable<string>) => {
  const meant = didYouMean(name, declared)
  const declare = `declare it with '{set ${name} = …}' in a declaration block, a module or session.json`
  return `'${name}' is never given a value${meant ? `${meant} Otherwise ${declare}` : `: ${declare}`}`
}

function reportShadowing(cx: CheckContext, file: string, name: string, pos: Pos): void {
  cx.report(file, 'story/shadowing', shadowingMessage(name), pos)
}

/**
 * A read or write of a name that no local, parameter, const or story variable covers, with its
 * position; undefined when it is covered (an assignment to a const is reported here) or when it is
 * an `=` assignment, which declares.
 */
function unresolvedUse(
  cx: CheckContext,
  fu: FileUses,
  u: Exclude<Use, { k: 'local' | 'temp' }>,
  locals: Locals,
  declared: ReadonlySet<string>,
): { name: string; pos: Pos } | undefined {
  const name = u.k === 'read' ? u.name : u.stmt.name
  if (isLocal(locals, fu, name, u.sections)) return undefined
  if (u.k === 'set' && fu.scope.consts.has(name)) {
    reportConstAssign(cx, fu, name, u.stmt.namePos)
    return undefined
  }
  if (u.k === 'read' && fu.scope.consts.has(name)) {
    if (fu.scope.items.has(name)) reportAmbiguous(cx, fu, name, u.pos, 'a constant')
    return undefined
  }
  if (u.k === 'read' && fu.scope.sets.has(name)) return undefined
  if (u.k === 'read' && fu.scope.items.has(name)) {
    const decls = fu.scope.items.get(name)!
    if (decls.length > 1) reportAmbiguous(cx, fu, name, u.pos, `an item of ${decls.slice(1).join(' and ')}`)
    else if (declared.has(name)) reportAmbiguous(cx, fu, name, u.pos, 'a story variable')
    return undefined
  }
  if (declared.has(name)) return undefined
  if (u.k === 'set' && u.stmt.op === '=') return undefined
  return { name, pos: u.k === 'read' ? u.pos : u.stmt.namePos }
}

/** 1.1: a bare item name that something else also names (the lookup order of "Sets"). */
function reportAmbiguous(cx: CheckContext, fu: FileUses, name: string, pos: Pos, also: string): void {
  const decl = fu.scope.items.get(name)![0]!
  cx.report(
    fu.file,
    'story/ambiguous-item',
    `'${name}' is an item of ${decl} and also ${also}; write ${decl}.${name} for the item`,
    pos,
  )
}

function reportConstAssign(cx: CheckContext, fu: FileUses, name: string, pos: Pos): void {
  cx.report(
    fu.file,
    'story/const-assign',
    `'${name}' is a constant of '${fu.scope.consts.get(name)}' and cannot change`,
    pos,
  )
}

/** Function calls, `{insert}` and `{call}`: visible names and argument counts. */
function checkCalls(cx: CheckContext, fu: FileUses): void {
  const arity = (pos: Pos, what: string, want: readonly [number, number], got: number) => {
    if (got < want[0] || got > want[1])
      cx.report(fu.file, 'story/arity', `${what} takes ${describeArity(want)}, not ${got}`, pos)
  }
  // One pass: a node's literal finding comes before its call finding, as when each had a walk of
  // its own (two findings at one position are always about one node).
  for (const e of fu.checked) {
    checkLiterals(cx, fu.file, e)
    if (e.k === 'field') {
      checkItem(cx, fu, e)
      continue
    }
    if (e.k !== 'call') continue
    if (fu.scope.sets.has(e.callee)) {
      checkSetLiteral(cx, fu, e)
      continue
    }
    const fn = fu.scope.fns.get(e.callee) ?? fu.scope.externs.get(e.callee)
    if (fn) arity(e.pos, `${e.callee}()`, [fn.params.length, fn.params.length], e.args.length)
    const refs = fu.scope.fns.get(e.callee)?.refs
    if (fn && refs)
      e.args.forEach((a, i) => {
        if (refs[i] && a.k === 'name' && fu.scope.consts.has(a.name)) reportConstAssign(cx, fu, a.name, a.pos)
        else if (refs[i] && a.k !== 'name')
          cx.report(
            fu.file,
            'story/ref-argument',
            `parameter '${fn.params[i]}' of ${e.callee}() is 'ref': pass a variable name, not an expression`,
            exprPos(a),
          )
      })
    if (fn) continue
    if (BUILTINS.has(e.callee)) arity(e.pos, `${e.callee}()`, BUILTINS.get(e.callee)!, e.args.length)
    else if (cx.v11 && e.callee === 'turns') arity(e.pos, 'turns()', [0, 1], e.args.length)
    else
      cx.report(
        fu.file,
        'story/unknown-function',
        e.callee.includes('.')
          ? `no '{extern ${e.callee}}' in the modules this file uses${didYouMean(e.callee, fu.scope.externs.keys())}`
          : `no function '${e.callee}': it is not a built-in and no module this file uses declares it${didYouMean(e.callee, [...fu.scope.fns.keys(), ...BUILTINS.keys()])}`,
        e.pos,
      )
  }
  for (const i of fu.inserts) {
    const p = fu.scope.passages.get(i.name)
    if (p) arity(i.pos, `{passage ${i.name}}`, [p.params.length, p.params.length], i.args)
    else
      cx.report(
        fu.file,
        'story/unknown-function',
        `no passage '${i.name}' in the modules this file uses${didYouMean(i.name, fu.scope.passages.keys())}`,
        i.pos,
      )
  }
  for (const c of fu.calls) {
    const x = fu.scope.externs.get(`${c.ns}.${c.fn}`)
    if (x) arity(c.pos, `${c.ns}.${c.fn}()`, [x.params.length, x.params.length], c.args)
    else
      cx.report(
        fu.file,
        'story/unknown-function',
        `no '{extern ${c.ns}.${c.fn}}' in the modules this file uses${didYouMean(`${c.ns}.${c.fn}`, fu.scope.externs.keys())}`,
        c.pos,
      )
  }
}

/** The position of an expression (a binary operation's is its left operand's). */
function exprPos(e: Expr): Pos {
  return e.k === 'bin' ? exprPos(e.a) : e.pos
}

/** 1.1: `Tools.rope` names an item Tools declares. */
function checkItem(cx: CheckContext, fu: FileUses, e: Extract<Expr, { k: 'field' }>): void {
  const set = fu.scope.sets.get((e.e as { name: string }).name)!
  if (!set.items.includes(e.name))
    cx.report(
      fu.file,
      'story/type-error',
      `${(e.e as { name: string }).name} has no item '${e.name}'; its items are ${set.items.join(', ')}`,
      e.pos,
    )
}

/** 1.1: `Tools(rope, lamp)` holds items of Tools (or sets of it). */
function checkSetLiteral(cx: CheckContext, fu: FileUses, e: Extract<Expr, { k: 'call' }>): void {
  const set = fu.scope.sets.get(e.callee)!
  // an item of another declaration (a name that is no item at all is `story/undeclared`, or a set variable)
  for (const a of e.args)
    if (a.k === 'name' && !set.items.includes(a.name) && fu.scope.items.has(a.name))
      cx.report(
        fu.file,
        'story/type-error',
        `${e.callee} has no item '${a.name}'; its items are ${set.items.join(', ')}`,
        a.pos,
      )
}

const num = (e: Expr | undefined): number | undefined => {
  if (e?.k === 'num') return e.v
  if (e?.k === 'un' && e.op === '-' && e.e.k === 'num') return -e.e.v
  return undefined
}

/**
 * Runtime errors that literal arguments make certain: dice and rolls out of range, `random`
 * with a bad range, `pick([])`, division by a literal zero.
 */
function checkLiterals(cx: CheckContext, file: string, e: Expr): void {
  const rollRange = (n: number, m: number) =>
    !(Number.isInteger(n) && Number.isInteger(m) && n >= 1 && n <= 100 && m >= 1)
  if (e.k === 'dice' && rollRange(e.n, e.m))
    cx.report(file, 'story/roll-range', `${e.n}d${e.m}: dice are 1 to 100 dice of at least 1 side`, e.pos)
  else if (e.k === 'bin' && (e.op === '/' || e.op === '%') && num(e.b) === 0)
    cx.report(file, 'story/division-by-zero', `'${e.op} 0' always divides by zero`, e.pos)
  else if (e.k === 'call' && e.args.length === 2 && (e.callee === 'roll' || e.callee === 'random')) {
    const a = num(e.args[0])
    const b = num(e.args[1])
    if (a === undefined || b === undefined) return
    if (e.callee === 'roll' && rollRange(a, b))
      cx.report(file, 'story/roll-range', `roll(${a}, ${b}): roll 1 to 100 dice of at least 1 side`, e.pos)
    else if (e.callee === 'random' && !(Number.isInteger(a) && Number.isInteger(b) && a <= b && b - a < 1e6))
      cx.report(
        file,
        'story/roll-range',
        `random(${a}, ${b}) needs whole numbers a <= b less than 1,000,000 apart`,
        e.pos,
      )
  } else if (e.k === 'call' && e.callee === 'pick' && e.args[0]?.k === 'list' && e.args[0].items.length === 0)
    cx.report(file, 'story/empty-pick', 'pick([]) has nothing to pick from', e.pos)
}
