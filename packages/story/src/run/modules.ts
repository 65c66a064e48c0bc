/**
 * Extension modules (section 8): resolving `{use}`, binding names, evaluating constants and
 * collecting `{set}` defaults in load order. Modules are parsed on first use. Internal.
 */

import { createDiagnostic, type Diagnostic } from '@spkg/manifest'
import type { ModuleAst, ModuleUse, Pos } from '../ast.ts'
import type { StoryLang } from '../lang.ts'
import { readModule } from '../parse/parse-module.ts'
import { modulePathCandidates } from '../paths.ts'
import { BUILTIN_NAMES } from './builtins.ts'
import { compileBody, compileDefault, compileFnBody } from './compile.ts'
import { compileExpr } from './expr.ts'
import { createRng } from './rng.ts'
import { ItemSet, type SetDecl, setDecl } from './sets.ts'
import { emptyModuleScope, type FnDef, type ModuleScope, type Scope, type Vm } from './vm.ts'

/** A loaded module. */
export interface LoadedModule {
  path: string
  /** Position in the load order. */
  order: number
  /** The names it declares itself (what a `{use}` makes visible). */
  own: ModuleScope
  /** Modules it binds with `{use}`. */
  deps: LoadedModule[]
  defaults: Array<(m: Vm) => void>
  /** 1.1: the set declarations it makes itself. */
  sets: SetDecl[]
  /** Problems found parsing and binding it. */
  diagnostics: Diagnostic[]
}

/**
 * Loads modules from the source list, once each. A registry belongs to one story source and is
 * shared by every run of it: compiled code takes the machine as an argument, and constants are
 * evaluated once from literals.
 */
export class ModuleRegistry {
  private readonly byPath = new Map<string, { source: string; order: number }>()
  private readonly loaded = new Map<string, LoadedModule | null>()
  private readonly loading = new Set<string>()
  private sink: Diagnostic[] = []

  constructor(
    sources: ReadonlyArray<{ path: string; source: string }>,
    /** The story-language version the modules are read at. */
    private readonly lang: StoryLang = '1.0',
  ) {
    sources.forEach((s, i) => {
      if (!this.byPath.has(s.path)) this.byPath.set(s.path, { source: s.source, order: i })
    })
  }

  /** Resolves `{use name}`: a path ending `.xty`, or a bare name meaning `extensions/<name>.xty` (or `<name>.xty` in a flat archive). */
  resolve(name: string): string | undefined {
    return modulePathCandidates(name).find((c) => this.byPath.has(c))
  }

  /** Binds the modules `uses` names; unknown modules, cycles and the modules' own problems go to `out`. */
  bindPart(uses: readonly ModuleUse[], file: string, out: Diagnostic[]): LoadedModule[] {
    const saved = this.sink
    this.sink = out
    try {
      const mods = this.bind(uses, file)
      for (const m of moduleClosure(mods)) out.push(...m.diagnostics)
      return mods
    } finally {
      this.sink = saved
    }
  }

  private bind(uses: readonly ModuleUse[], file: string): LoadedModule[] {
    const out: LoadedModule[] = []
    for (const u of uses) {
      const path = this.resolve(u.module)
      if (path === undefined) {
        this.report('story/unknown-module', `no module '${u.module}' in the archive`, file, u.namePos)
        continue
      }
      if (this.loading.has(path)) {
        this.report(
          'story/module-cycle',
          `modules use each other in a cycle through '${path}'`,
          file,
          u.namePos,
        )
        continue
      }
      const m = this.load(path)
      if (m) out.push(m)
    }
    return out
  }

  private report(
    code: 'story/unknown-module' | 'story/module-cycle' | 'story/duplicate-declaration',
    message: string,
    file: string,
    pos: Pos,
  ): void {
    this.sink.push(createDiagnostic(code, message, { path: file, line: pos.line, column: pos.column }))
  }

  private load(path: string): LoadedModule | null {
    const cached = this.loaded.get(path)
    if (cached !== undefined) return cached
    const src = this.byPath.get(path)!
    const { ast, diagnostics } = readModule(src.source, { path, lang: this.lang })
    const saved = this.sink
    this.sink = diagnostics
    this.loading.add(path)
    try {
      const deps = this.bind(ast.uses, path)
      const mod = this.build(ast, src.order, deps, diagnostics)
      this.loaded.set(path, mod)
      return mod
    } finally {
      this.loading.delete(path)
      this.sink = saved
    }
  }

  private build(
    ast: ModuleAst,
    order: number,
    deps: LoadedModule[],
    diagnostics: Diagnostic[],
  ): LoadedModule {
    const file = ast.file
    const cvm = constVm(file, diagnostics)
    const own = emptyModuleScope()
    const visible = mergeScopes(
      deps.map((d) => d.own),
      own,
    )
    const scope: Scope = { file, module: visible, params: [] }
    const taken = (name: string, pos: Pos): boolean => {
      if (
        BUILTIN_NAMES.has(name) ||
        own.consts.has(name) ||
        own.fns.has(name) ||
        own.passages.has(name) ||
        own.sets.has(name)
      ) {
        this.report('story/duplicate-declaration', `'${name}' is already declared`, file, pos)
        return true
      }
      return false
    }
    const sets: SetDecl[] = []
    for (const d of ast.items ?? []) {
      if (taken(d.name, d.namePos)) continue
      const decl = setDecl(d.name, d.items)
      sets.push(decl)
      addSetDecl(own, decl)
      addSetDecl(visible, decl)
    }
    for (const c of ast.consts) {
      if (taken(c.name, c.namePos)) continue
      const v = compileExpr(c.e, scope)(cvm)
      own.consts.set(c.name, v)
      visible.consts.set(c.name, v)
    }
    for (const f of ast.fns) {
      if (taken(f.name, f.namePos)) continue
      const def = {
        name: f.name,
        file,
        params: f.params,
        body: undefined,
        compile: () =>
          compileExpr(f.e, { file, module: visible, params: f.params, v11: this.lang !== '1.0' }),
      }
      own.fns.set(f.name, def)
      visible.fns.set(f.name, def)
    }
    for (const f of ast.blockFns ?? []) {
      if (taken(f.name, f.namePos)) continue
      const def: FnDef = {
        name: f.name,
        file,
        params: f.params,
        refs: f.refs,
        block: true,
        body: undefined,
        compile: () => compileFnBody(f.body, { file, module: visible, params: f.params, refs: f.refs }),
      }
      own.fns.set(f.name, def)
      visible.fns.set(f.name, def)
    }
    for (const p of ast.passages) {
      if (taken(p.name, p.namePos)) continue
      const def = {
        name: p.name,
        file,
        params: p.params,
        code: undefined,
        compile: () =>
          compileBody(p.body, {
            file,
            module: visible,
            params: p.params,
            part: false,
            v11: this.lang !== '1.0',
          }).code,
      }
      own.passages.set(p.name, def)
      visible.passages.set(p.name, def)
    }
    for (const x of ast.externs) {
      own.externs.add(`${x.ns}.${x.fn}`)
      visible.externs.add(`${x.ns}.${x.fn}`)
    }
    const defaults = ast.defaults.map((d) => compileDefault(d, scope))
    return { path: file, order, own, deps, defaults, sets, diagnostics }
  }
}

/** The machine constants are evaluated on: no variables, no host, a fixed generator. */
export function constVm(file: string, out: Diagnostic[]): Vm {
  return {
    vars: new Map(),
    rng: createRng(0),
    frame: [],
    temps: new Map(),
    setDecls: new Map(),
    depth: 0,
    curFile: file,
    visitsKey: undefined,
    host: {},
    replaying: false,
    choices: new Map(),
    visited: new Set(),
    turns: 0,
    partEntries: () => 0,
    chosenCount: () => 0,
    report: (code, message, path, pos) =>
      out.push(createDiagnostic(code, message, { path, line: pos?.line, column: pos?.column })),
  }
}

/** The names visible from several modules, plus `into`'s own (which win). */
export function mergeScopes(scopes: ModuleScope[], into: ModuleScope = emptyModuleScope()): ModuleScope {
  const out = emptyModuleScope()
  for (const s of [...scopes, into]) {
    for (const [k, v] of s.consts) out.consts.set(k, v)
    for (const [k, v] of s.sets) addSetDecl(out, v, k)
    for (const [k, v] of s.fns) out.fns.set(k, v)
    for (const [k, v] of s.passages) out.passages.set(k, v)
    for (const k of s.externs) out.externs.add(k)
  }
  return out
}

/** Makes the set declaration `decl` visible in `scope` (its items too); a name already visible is kept. */
export function addSetDecl(scope: ModuleScope, decl: SetDecl, name = decl.name): void {
  if (scope.sets.has(name)) return
  scope.sets.set(name, decl)
  decl.items.forEach((item, i) => {
    const one = new ItemSet(decl, [i])
    const list = scope.items.get(item)
    if (list) list.push(one)
    else scope.items.set(item, [one])
  })
}

/** Every module bound directly or through other modules, in load order. */
export function moduleClosure(direct: LoadedModule[]): LoadedModule[] {
  const seen = new Set<LoadedModule>()
  const visit = (m: LoadedModule) => {
    if (seen.has(m)) return
    seen.add(m)
    m.deps.forEach(visit)
  }
  direct.forEach(visit)
  return [...seen].sort((a, b) => a.order - b.order)
}
