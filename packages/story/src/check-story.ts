/**
 * `checkStory`: the static checker behind `spkg validate`. Parses every part and module of a
 * package and checks what only the whole package can tell.
 */
import { createDiagnostic, type Diagnostic, type DiagnosticCode, isVariableName } from '@spkg/manifest'
import { checkModules, type Scope, scopeOf } from './_check-modules'
import { checkNames } from './_check-names'
import { checkParts, collectIds } from './_check-parts'
import type { IdKind } from './_resolve'
import type { ModuleAst, PartAst, Pos } from './ast'
import { parseModule } from './parse-module'
import { parseStory } from './parse-story'

/** What {@link checkStory} checks: the story files of one package and what the manifest says. */
export interface CheckStoryInput {
  /** Every part (`.sty`) by archive path. */
  parts: Record<string, string | Uint8Array>
  /** `manifest.parts` in play order; the first is the entry part. */
  order: string[]
  /** Every module (`.xty`) by archive path. @default {} */
  modules?: Record<string, string | Uint8Array>
  /** Every file path in the archive, for `story/missing-media`. When absent, media is not checked. */
  assets?: string[]
  /** `manifest.requires`: the host namespaces `{extern}` may use. @default [] */
  requires?: string[]
  /** The values of `session.json`; its keys declare story variables. */
  session?: Record<string, unknown>
  /** `manifest.story_lang` (`"1.0"`); another major version is `story/lang-version`. */
  storyLang?: string
  /** `manifest.extensions`: module load order; otherwise lexicographic. */
  extensions?: string[]
  /** A flat archive: modules sit at the root (`{use combat}` is `combat.xty`). @default false */
  flat?: boolean
}

/** Shared state of one check run. Internal to the checker files. */
export interface CheckContext {
  parts: Map<string, { ast: PartAst; ids: Map<string, IdKind> }>
  modules: Map<string, ModuleAst>
  moduleOrder: string[]
  entry: string | undefined
  /** `manifest.parts` as given. */
  order: string[]
  assets: Set<string> | undefined
  requires: Set<string>
  sessionKeys: string[]
  flat: boolean
  /** Reports at `pos` in `file`; without `pos`, a finding about a JSON file (with `field`). */
  report(file: string, code: DiagnosticCode, message: string, pos?: Pos, field?: string): void
}

/**
 * Checks a whole story: every parse diagnostic of every part and module, then unknown part
 * targets and scene ids, unreachable sections, undeclared variables, missing media, `{use}` of
 * absent modules, module cycles, duplicate declarations, recursion, `{extern}` namespaces not in
 * `manifest.requires`, unknown functions and passages, wrong argument counts, and (info)
 * once-only options without explicit ids. Never throws. Diagnostics come grouped by file (parts
 * in play order, then modules), each file sorted by position; manifest and session findings first.
 *
 * @example
 * ```ts
 * checkStory({ parts: { 'story/a.sty': '[[ b.sty ]]' }, order: ['story/a.sty'] })
 * // [{ code: 'story/unknown-part', severity: 'error', path: 'story/a.sty', line: 1, column: 1, ... }]
 * ```
 */
export function checkStory(input: CheckStoryInput): Diagnostic[] {
  const out: Diagnostic[] = []
  const cx: CheckContext = {
    parts: new Map(),
    modules: new Map(),
    moduleOrder: [],
    entry: input.order.find((p) => Object.hasOwn(input.parts, p)),
    order: input.order,
    assets: input.assets ? new Set(input.assets) : undefined,
    requires: new Set(input.requires ?? []),
    sessionKeys: [],
    flat: input.flat ?? false,
    report(file, code, message, pos, field) {
      const at = pos ? { path: file, line: pos.line, column: pos.column } : { path: file, field }
      out.push(createDiagnostic(code, message, at))
    },
  }
  checkManifestFields(cx, input)
  const partOrder = [
    ...input.order.filter((p) => Object.hasOwn(input.parts, p)),
    ...Object.keys(input.parts).sort(),
  ]
  for (const path of new Set(partOrder)) {
    const r = parseStory(input.parts[path]!, { path })
    out.push(...r.diagnostics)
    cx.parts.set(path, { ast: r.ast, ids: collectIds(r.ast) })
  }
  const modules = input.modules ?? {}
  const loadOrder = [
    ...(input.extensions ?? []).filter((p) => Object.hasOwn(modules, p)),
    ...Object.keys(modules).sort(),
  ]
  cx.moduleOrder = [...new Set(loadOrder)]
  for (const path of cx.moduleOrder) {
    const r = parseModule(modules[path]!, { path })
    out.push(...r.diagnostics)
    cx.modules.set(path, r.ast)
  }
  checkParts(cx)
  const moduleScopes = checkModules(cx)
  const partScopes = new Map<string, Scope>()
  for (const [file, part] of cx.parts)
    partScopes.set(file, scopeOf(cx, file, part.ast.declarations.uses, true))
  checkNames(cx, moduleScopes, partScopes)
  return sortByFile(out, [...cx.parts.keys(), ...cx.moduleOrder])
}

function checkManifestFields(cx: CheckContext, input: CheckStoryInput): void {
  if (input.storyLang !== undefined) {
    const major = /^(\d+)(?:\.\d+)*$/.exec(input.storyLang)?.[1]
    if (major !== '1')
      cxReport(
        cx,
        'manifest.json',
        'story/lang-version',
        'story_lang',
        `story_lang '${input.storyLang}' is not a 1.x version of the story language; this library reads 1.x`,
      )
  }
  for (const [key, value] of Object.entries(input.session ?? {})) {
    if (!isVariableName(key))
      cxReport(
        cx,
        'session.json',
        'story/session-name',
        key,
        `session key '${key}' is not a variable name a story can read; it is ignored`,
      )
    else if (value === null)
      cxReport(cx, 'session.json', 'story/session-name', key, `session key '${key}' is null; it is ignored`)
    else cx.sessionKeys.push(key)
  }
}

function cxReport(
  cx: CheckContext,
  file: string,
  code: DiagnosticCode,
  field: string,
  message: string,
): void {
  cx.report(file, code, message, undefined, field)
}

/** Groups diagnostics by file in `order` (others first), each file sorted by position. */
function sortByFile(ds: Diagnostic[], order: string[]): Diagnostic[] {
  const rank = new Map(order.map((p, i) => [p, i + 1]))
  return ds
    .map((d, n) => ({ d, n }))
    .sort(
      (a, b) =>
        (rank.get(a.d.path ?? '') ?? 0) - (rank.get(b.d.path ?? '') ?? 0) ||
        (a.d.line ?? 0) - (b.d.line ?? 0) ||
        (a.d.column ?? 0) - (b.d.column ?? 0) ||
        a.n - b.n,
    )
    .map((x) => x.d)
}
