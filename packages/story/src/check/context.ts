/**
 * What the checker's files share: the phases findings are filed under and the state of one check
 * run. A leaf: it imports nothing from the package at run time, so the checker files that import
 * it form no cycle with check-story.ts.
 */
import type { DiagnosticCode } from '@spkg/manifest'
import type { IdKind, ModuleAst, Pos } from '../ast.ts'

/** When a finding is reported: findings about one file at one position keep this order. */
export const PHASE = {
  manifest: 0,
  parse: 1,
  targets: 2,
  media: 3,
  seed: 4,
  implicitIds: 5,
  deadSections: 6,
  deadParts: 7,
  modules: 8,
  partUses: 9,
  names: 10,
  calls: 11,
  fallThrough: 12,
  loops: 13,
  unused: 14,
  tunnelEnds: 15,
} as const

/** Shared state of one check run. */
export interface CheckContext {
  /** Every part path (parsed or not yet). */
  partPaths: ReadonlySet<string>
  /** The id table of each part parsed so far. */
  partIds: Map<string, Map<string, IdKind>>
  modules: Map<string, ModuleAst>
  moduleOrder: string[]
  entry: string | undefined
  /** `manifest.parts` as given. */
  order: string[]
  assets: Set<string> | undefined
  requires: Set<string>
  sessionKeys: string[]
  /** Variables a host app reads (`CheckStoryInput.hostVariables`). */
  hostVariables: ReadonlySet<string>
  flat: boolean
  /** True when the story is read at 1.1 or later (`turns()` is a built-in). */
  v11: boolean
  /** The phase {@link CheckContext.report} files findings under. */
  phase: number
  /** Reports at `pos` in `file`; without `pos`, a finding about a JSON file (with `field`). */
  report(file: string, code: DiagnosticCode, message: string, pos?: Pos, field?: string): void
  /** A place in the report order, for a finding only decided later ({@link CheckContext.reportAt}). */
  reserve(): number
  /** Reports a finding in the place `seq` reserved, under `phase`. */
  reportAt(seq: number, phase: number, file: string, code: DiagnosticCode, message: string, pos: Pos): void
}

/** What a module declares, by name, with the module that declares it. */
export interface Scope {
  consts: Map<string, string>
  /** 1.1: set declarations by name, with their items and the file that declares them. */
  sets: Map<string, { items: string[]; module: string }>
  /** 1.1: item name → the names of the set declarations that have it. */
  items: Map<string, string[]>
  /** `refs` (1.1): which parameters of a block function are `ref`; `block`: a block function. */
  fns: Map<string, { params: string[]; module: string; refs?: boolean[]; block?: boolean }>
  passages: Map<string, { params: string[]; module: string }>
  externs: Map<string, { params: string[]; module: string }>
}

/** An empty scope. */
export function emptyScope(): Scope {
  return {
    consts: new Map(),
    sets: new Map(),
    items: new Map(),
    fns: new Map(),
    passages: new Map(),
    externs: new Map(),
  }
}

/** 1.1: makes the set declaration `name` of `file` visible in `scope` (a name already visible is kept). */
export function addSet(scope: Scope, name: string, items: string[], file: string): void {
  if (scope.sets.has(name)) return
  scope.sets.set(name, { items, module: file })
  for (const item of items) {
    const list = scope.items.get(item)
    if (list) list.push(name)
    else scope.items.set(item, [name])
  }
}
