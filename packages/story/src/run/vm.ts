/**
 * The interpreter's internal interfaces: the machine state that compiled closures read and write,
 * and the compile-time scope. Internal: nothing here is exported from the package.
 */
import type { DiagnosticCode } from '@spkg/manifest'
import type { IdKind, Pos } from '../ast.ts'
import type { Rng } from './rng.ts'
import type { ItemSet, SetDecl } from './sets.ts'
import type { HostFunctions, Value } from './types.ts'

/** The machine state compiled code runs against. */
export interface Vm {
  /** Story variables, locals (`file:section.name`) and visit counts (`file:section@visits`). */
  vars: Map<string, Value>
  rng: Rng
  /** Parameters (then temporaries) of the running module function or passage; a `ref` parameter holds a {@link Ref}. */
  frame: Value[]
  /** 1.1: the `{temp}` variables of the section being played (`file:section.name`); not saved, rebuilt by replay. */
  temps: Map<string, Value>
  /** 1.1: every set declaration of the parts entered and their modules, by name (to read a saved set back). */
  setDecls: Map<string, SetDecl>
  /** Nesting of module function calls (a guard against recursion the checker missed). */
  depth: number
  /** The file of the part being played. */
  curFile: string
  /** The visit-count key of the section running module code was reached from; `undefined` in `h0`. */
  visitsKey: string | undefined
  host: HostFunctions
  /** True while resume replays recorded choices: `{call}` is skipped. */
  replaying: boolean
  choices: Map<string, string[]>
  visited: Set<string>
  /** 1.1: the pauses answered so far (`turns()`; automatic fallbacks are not answers). */
  turns: number
  /** How often the part was entered (`visits()` in `h0`). */
  partEntries(file: string): number
  /** 1.1: how many times the option `id` of `file` (an explicit id) was chosen, from `choices`. */
  chosenCount(file: string, id: string): number
  /** Reports a runtime diagnostic; play goes on. */
  report(code: DiagnosticCode, message: string, file: string, pos?: Pos): void
}

/**
 * The internalized copy of `s` (V8 keeps one object per internalized string). State keys are built
 * at compile time from source slices and template strings; interned, a lookup in `vars`, `choices`
 * or `visited` matches by pointer instead of comparing characters, also against keys read from a
 * saved state (JSON object keys are internalized).
 */
export function intern(s: string): string {
  const o: Record<string, 0> = { [s]: 0 }
  for (const k in o) return k
  return s
}

/** A compiled expression. */
export type Ev = (m: Vm) => Value

/** 1.1: what a `ref` parameter holds: the caller's variable. */
export class Ref {
  constructor(
    readonly get: () => Value | undefined,
    readonly set: (v: Value) => void,
  ) {}
}

/** A module function. */
export interface FnDef {
  name: string
  file: string
  params: string[]
  /** 1.1: which parameters are `ref` (absent: none). */
  refs?: readonly boolean[]
  /** 1.1: a block function `{fn f()}` … `{end}` (may recurse, 200 calls deep). */
  block?: boolean
  /** Compiled on first call, so functions may call functions declared after them. */
  body: Ev | undefined
  compile: () => Ev
}

/** The names a module makes visible where it is `{use}`d. */
export interface ModuleScope {
  consts: Map<string, Value>
  /** 1.1: visible set declarations by name. */
  sets: Map<string, SetDecl>
  /** 1.1: visible item names → the one-item set of each declaration that has such an item. */
  items: Map<string, ItemSet[]>
  fns: Map<string, FnDef>
  passages: Map<string, PassageDef>
  externs: Set<string>
}

/** A module passage: compiled lazily to its own code. */
export interface PassageDef {
  name: string
  file: string
  params: string[]
  code: unknown[] | undefined
  compile: () => unknown[]
}

/** Where an expression is compiled: names and sections visible to it. */
export interface Scope {
  file: string
  params: readonly string[]
  module: ModuleScope
  /** Part code only: the enclosing sections, innermost first (empty in `h0`). */
  chain?: readonly string[]
  /** Part code only: the locals declared per section. */
  locals?: ReadonlyMap<string, ReadonlySet<string>>
  /** Part code only: heading ids of the file. */
  headings?: ReadonlySet<string>
  /** True when the file is read at 1.1 or later. */
  v11?: boolean
  /** 1.1, part code only: every id of the file and what it names. */
  kinds?: ReadonlyMap<string, IdKind>
  /** 1.1, part code only: the decision key (`<file>:<group>`) of each explicit option id. */
  optionGroups?: ReadonlyMap<string, string>
  /** 1.1, part code only: the `{temp}` names per section. */
  temps?: ReadonlyMap<string, ReadonlySet<string>>
  /** 1.1, functions and passages: `params[i]` from this index on are `{temp}` slots of the frame. */
  firstTemp?: number
  /** 1.1, functions: which parameters are `ref`. */
  refs?: readonly boolean[]
}

/** What resume plugs into the machine while it replays. */
export interface ReplayHooks {
  /** At a pause: the recorded entry (an option id, or `>` and a link target), or `undefined` to stop here. */
  onPause(key: string): string | undefined
  /** At an automatic fallback: false when it does not match the record. */
  onAuto(key: string, id: string): boolean
  /** At a part entry: false when it does not follow the record. */
  onEnter(path: string): boolean
  /** Set when the replay no longer follows the record. */
  diverged: boolean
  stopped: boolean
}

/** An empty module scope. */
export function emptyModuleScope(): ModuleScope {
  return {
    consts: new Map(),
    sets: new Map(),
    items: new Map(),
    fns: new Map(),
    passages: new Map(),
    externs: new Set(),
  }
}
