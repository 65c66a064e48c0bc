/**
 * Checks of extension modules (section 8): unknown modules, cycles, duplicate declarations,
 * extern namespaces, pure constants and recursion; and the scopes that `{use}` makes visible.
 * Internal.
 */

import type { ConstDecl, Expr, ModuleAst, ModuleUse, Pos } from '../ast.ts'
import { BUILTINS, IMPURE_BUILTINS } from '../builtins.ts'
import { nodeExprs, visitNodes, walkExpr } from '../parse/walk.ts'
import { modulePathCandidates } from '../paths.ts'
import { addSet, type CheckContext, emptyScope, type Scope } from './context.ts'

/** Adds the declarations of `mod` (at `path`) to `scope`, first declaration winning. */
function addModule(scope: Scope, path: string, mod: ModuleAst): void {
  for (const c of mod.consts) if (!scope.consts.has(c.name)) scope.consts.set(c.name, path)
  for (const d of mod.items ?? [])
    addSet(
      scope,
      d.name,
      d.items.map((x) => x.name),
      path,
    )
  for (const f of mod.blockFns ?? [])
    if (!scope.fns.has(f.name))
      scope.fns.set(f.name, { params: f.params, module: path, refs: f.refs, block: true })
  for (const f of mod.fns)
    if (!scope.fns.has(f.name)) scope.fns.set(f.name, { params: f.params, module: path })
  for (const p of mod.passages)
    if (!scope.passages.has(p.name)) scope.passages.set(p.name, { params: p.params, module: path })
  for (const x of mod.externs)
    if (!scope.externs.has(`${x.ns}.${x.fn}`))
      scope.externs.set(`${x.ns}.${x.fn}`, { params: x.params, module: path })
}

/**
 * The scope of a file that `{use}`s `uses`: the declarations of those modules (not of the
 * modules they use in turn). Unknown modules are reported when `report` is set.
 */
export function scopeOf(cx: CheckContext, file: string, uses: ModuleUse[], report: boolean): Scope {
  const scope = emptyScope()
  for (const u of uses) {
    const path = findModule(cx, u.module)
    if (path !== undefined) addModule(scope, path, cx.modules.get(path)!)
    else if (report)
      cx.report(
        file,
        'story/unknown-module',
        `no module '${modulePathCandidates(u.module, { flat: cx.flat })[0]}' in this package ({use ${u.module}})`,
        u.namePos,
      )
  }
  return scope
}

/** The archive path of the module `{use name}` binds, or undefined when there is none. */
export function findModule(cx: CheckContext, name: string): string | undefined {
  return modulePathCandidates(name, { flat: cx.flat }).find((p) => cx.modules.has(p))
}

/** Runs the module checks; returns each module's own scope (its declarations plus its uses). */
export function checkModules(cx: CheckContext): Map<string, Scope> {
  const scopes = new Map<string, Scope>()
  const global = new Map<string, string>()
  for (const path of cx.moduleOrder) {
    const mod = cx.modules.get(path)!
    const scope = scopeOf(cx, path, mod.uses, true)
    const own = new Map<string, number>()
    const declare = (name: string, pos: Pos, what: string) => {
      if (BUILTINS.has(name)) {
        cx.report(
          path,
          'story/duplicate-declaration',
          `'${name}' is a built-in function; name the ${what} otherwise`,
          pos,
        )
        return
      }
      const line = own.get(name)
      if (line !== undefined) {
        cx.report(path, 'story/duplicate-declaration', `'${name}' is already declared on line ${line}`, pos)
        return
      }
      own.set(name, pos.line)
      if (what === 'default') return
      const other = global.get(name)
      if (other !== undefined && other !== path)
        cx.report(path, 'story/duplicate-declaration', `'${name}' is already declared in '${other}'`, pos)
      else global.set(name, path)
    }
    for (const d of mod.defaults) declare(d.name, d.namePos, 'default')
    for (const d of mod.items ?? []) declare(d.name, d.namePos, 'set')
    for (const c of mod.consts) declare(c.name, c.namePos, 'constant')
    for (const f of mod.fns) declare(f.name, f.namePos, 'function')
    for (const f of mod.blockFns ?? []) declare(f.name, f.namePos, 'function')
    for (const p of mod.passages) declare(p.name, p.namePos, 'passage')
    const externs = new Set<string>()
    for (const x of mod.externs) {
      const key = `${x.ns}.${x.fn}`
      if (externs.has(key))
        cx.report(path, 'story/duplicate-declaration', `'{extern ${key}}' is declared twice`, x.namePos)
      externs.add(key)
      if (!cx.requires.has(x.ns))
        cx.report(
          path,
          'story/extern-namespace',
          `'${x.ns}' is not in the manifest's "requires"; add it there so hosts know to provide it`,
          x.namePos,
        )
    }
    addModule(scope, path, mod)
    scopes.set(path, scope)
    checkConsts(cx, path, mod.consts, scope)
  }
  checkCycles(cx)
  checkRecursion(cx, scopes)
  return scopes
}

/**
 * The 1.1 constants of a part (`{const}` in its declaration block): added to the part's `scope`,
 * with the module rules: no built-in's name, no name declared twice in the part or by a module
 * the part uses, values from literals, pure built-ins and other constants.
 */
export function checkPartConsts(
  cx: CheckContext,
  path: string,
  consts: readonly ConstDecl[],
  scope: Scope,
): void {
  const own = new Map<string, number>()
  for (const c of consts) {
    const line = own.get(c.name)
    const message = BUILTINS.has(c.name)
      ? `'${c.name}' is a built-in function; name the constant otherwise`
      : line !== undefined
        ? `'${c.name}' is already declared on line ${line}`
        : scope.consts.has(c.name)
          ? `'${c.name}' is already declared in '${scope.consts.get(c.name)}'`
          : scope.fns.has(c.name) || scope.passages.has(c.name)
            ? `'${c.name}' is already declared in '${(scope.fns.get(c.name) ?? scope.passages.get(c.name))!.module}'`
            : undefined
    if (message) {
      cx.report(path, 'story/duplicate-declaration', message, c.namePos)
      continue
    }
    own.set(c.name, c.namePos.line)
    scope.consts.set(c.name, path)
  }
  checkConsts(cx, path, consts, scope)
}

/** `{const}` values are built from literals, built-ins without side effects and other constants. */
function checkConsts(cx: CheckContext, path: string, consts: readonly ConstDecl[], scope: Scope): void {
  for (const c of consts)
    walkExpr(c.e, (e) => {
      const bad =
        e.k === 'name' && !scope.consts.has(e.name)
          ? `'${e.name}' is not a constant`
          : e.k === 'dice' || (e.k === 'call' && (IMPURE_BUILTINS.has(e.callee) || !BUILTINS.has(e.callee)))
            ? 'a constant cannot roll dice or call functions other than pure built-ins'
            : e.k === 'ref'
              ? 'a constant cannot refer to a heading or group'
              : undefined
      if (bad)
        cx.report(path, 'story/bad-expression', `{const ${c.name}}: ${bad}; use {set} or {fn} instead`, e.pos)
    })
}

/** `story/module-cycle`: reported at the `{use}` that closes a cycle. */
function checkCycles(cx: CheckContext): void {
  const uses = new Map<string, Array<{ path: string; pos: Pos }>>()
  for (const path of cx.moduleOrder)
    uses.set(
      path,
      cx.modules
        .get(path)!
        .uses.map((u) => ({ path: findModule(cx, u.module) ?? '', pos: u.namePos }))
        .filter((u) => cx.modules.has(u.path)),
    )
  findCycles(
    cx.moduleOrder,
    (path) => uses.get(path)!.map((u) => u.path),
    (cycle, from, edge) =>
      cx.report(
        from,
        'story/module-cycle',
        `modules use each other in a cycle: ${showCycle(cycle)}`,
        uses.get(from)![edge]!.pos,
      ),
  )
}

/** `a → b → c → a`, shortened in the middle for long cycles. */
function showCycle(names: string[]): string {
  const shown =
    names.length > 8 ? [...names.slice(0, 4), `… ${names.length - 7} more …`, ...names.slice(-3)] : names
  return shown.join(' → ')
}

/**
 * Iterative depth-first search (deep call chains cannot overflow the stack): calls `onCycle`
 * with the cycle, the node and the index of the edge that closes it.
 */
function findCycles<K>(
  roots: Iterable<K>,
  edgesOf: (k: K) => readonly K[],
  onCycle: (cycle: K[], from: K, edge: number) => void,
): void {
  const done = new Set<K>()
  const onStack = new Map<K, number>()
  const trail: K[] = []
  const next: number[] = []
  for (const root of roots) {
    if (done.has(root)) continue
    onStack.set(root, 0)
    trail.push(root)
    next.push(0)
    while (trail.length > 0) {
      const k = trail[trail.length - 1]!
      const edges = edgesOf(k)
      const i = next[next.length - 1]!
      if (i >= edges.length) {
        trail.pop()
        next.pop()
        onStack.delete(k)
        done.add(k)
        continue
      }
      next[next.length - 1] = i + 1
      const to = edges[i]!
      const at = onStack.get(to)
      if (at !== undefined) onCycle([...trail.slice(at), to], k, i)
      else if (!done.has(to)) {
        onStack.set(to, trail.length)
        trail.push(to)
        next.push(0)
      }
    }
  }
}

/** `story/recursion`: a function calling itself, or a passage inserting itself, directly or not. */
function checkRecursion(cx: CheckContext, scopes: Map<string, Scope>): void {
  type Key = string
  const edges = new Map<Key, Array<Key>>()
  const where = new Map<Key, { path: string; pos: Pos; label: string }>()
  const block = new Set<Key>()
  for (const path of cx.moduleOrder) {
    const mod = cx.modules.get(path)!
    const scope = scopes.get(path)!
    const callees = (exprs: Expr[]) => {
      const out: Key[] = []
      for (const root of exprs)
        walkExpr(root, (e) => {
          if (e.k === 'call') {
            const f = scope.fns.get(e.callee)
            if (f) out.push(`fn:${f.module}:${e.callee}`)
          }
        })
      return out
    }
    for (const f of mod.fns) {
      const key = `fn:${path}:${f.name}`
      edges.set(key, callees([f.e]))
      where.set(key, { path, pos: f.namePos, label: `${f.name}()` })
    }
    for (const f of mod.blockFns ?? []) {
      // 1.1: a block function may recurse (an {if} can stop it): it is in no reported cycle
      const key = `fn:${path}:${f.name}`
      block.add(key)
      const exprs: Expr[] = []
      visitNodes(f.body, { node: (n) => exprs.push(...nodeExprs(n)) })
      edges.set(key, callees(exprs))
      where.set(key, { path, pos: f.namePos, label: `${f.name}()` })
    }
    for (const p of mod.passages) {
      const key = `passage:${path}:${p.name}`
      const out: Key[] = []
      visitNodes(p.body, {
        node(n) {
          if (n.kind === 'insert') {
            const target = scope.passages.get(n.name)
            if (target) out.push(`passage:${target.module}:${n.name}`)
          }
          out.push(...callees(nodeExprs(n)))
        },
      })
      edges.set(key, out)
      where.set(key, { path, pos: p.namePos, label: `{passage ${p.name}}` })
    }
  }
  findCycles(
    edges.keys(),
    (k) => edges.get(k) ?? [],
    (cycle) => {
      if (cycle.some((k) => block.has(k))) return
      const w = where.get(cycle[0]!)!
      const labels = showCycle(cycle.map((x) => where.get(x)!.label))
      cx.report(
        w.path,
        'story/recursion',
        `${w.label} calls itself (${labels}); functions and passages cannot recurse`,
        w.pos,
      )
    },
  )
}
