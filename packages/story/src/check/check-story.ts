/**
 * `checkStory`: the static checker behind `spkg validate`. Parses every part and module of a
 * package and checks what only the whole package can tell.
 */
import { createDiagnostic, type Diagnostic, type DiagnosticCode, isVariableName } from '@spkg/manifest'
import type { ItemsDecl } from '../ast.ts'
import { BUILTINS } from '../builtins.ts'
import { readingLang, type StoryLang, storyLangOf } from '../lang.ts'
import { parseModule } from '../parse/parse-module.ts'
import { parseStory } from '../parse/parse-story.ts'
import { addSet, type CheckContext, PHASE, type Scope } from './context.ts'
import { checkModules, checkPartConsts, scopeOf } from './modules.ts'
import { NameChecks } from './names.ts'
import { PartChecks } from './parts.ts'

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
  /**
   * `manifest.story_lang` (`"1.0"`, `"1.1"`; absent: 1.0): the version the parts and modules are
   * read at. Another major version, or a 1.x newer than this library, is `story/lang-version`.
   */
  storyLang?: string
  /** `manifest.extensions`: module load order; otherwise lexicographic. */
  extensions?: string[]
  /** A flat archive: modules sit at the root (`{use combat}` is `combat.xty`). @default false */
  flat?: boolean
  /**
   * Story variables a host app shows or reads (the `variables` of `manifest.reader.tabBar`'s
   * sections, see {@link tabBarVariables}): never `story/unused-variable`. @default []
   */
  hostVariables?: string[]
}

/**
 * The story variables `manifest.reader.tabBar` shows: the `name` of every entry of a section's
 * `variables` list. A host reads them, so they are read even when no line of the story is.
 *
 * @example
 * tabBarVariables({ reader: { tabBar: { bag: { variables: [{ name: 'coins' }] } } } }) // ['coins']
 */
export function tabBarVariables(manifest: unknown): string[] {
  const bar = (manifest as { reader?: { tabBar?: unknown } } | undefined)?.reader?.tabBar
  if (!bar || typeof bar !== 'object') return []
  const out: string[] = []
  for (const section of Object.values(bar)) {
    const vars = (section as { variables?: unknown } | null)?.variables
    if (Array.isArray(vars))
      for (const v of vars) {
        const name = (v as { name?: unknown } | null)?.name
        if (typeof name === 'string') out.push(name)
      }
  }
  return out
}

/**
 * Checks a whole story: every parse diagnostic of every part and module, then unknown part
 * targets and scene ids, unreachable sections, undeclared variables, missing media, `{use}` of
 * absent modules, module cycles, duplicate declarations, recursion, `{extern}` namespaces not in
 * `manifest.requires`, unknown functions and passages, wrong argument counts, and (info)
 * once-only options without explicit ids. Never throws. Diagnostics come grouped by file (parts
 * in play order, then modules), each file sorted by position; manifest and session findings first.
 *
 * Parts are checked one at a time: a part's syntax tree is dropped once its own checks have run,
 * and only what the cross-part checks need (ids, targets, candidates) is kept, so memory grows
 * with the largest part, not with the whole story.
 *
 * @example
 * ```ts
 * checkStory({ parts: { 'story/a.sty': '[[ b.sty ]]' }, order: ['story/a.sty'] })
 * // [{ code: 'story/unknown-part', severity: 'error', path: 'story/a.sty', line: 1, column: 1, ... }]
 * ```
 */
export function checkStory(input: CheckStoryInput): Diagnostic[] {
  const partOrder = [
    ...new Set([
      ...input.order.filter((p) => Object.hasOwn(input.parts, p)),
      ...Object.keys(input.parts).sort(),
    ]),
  ]
  const modules = input.modules ?? {}
  const moduleOrder = [
    ...new Set([
      ...(input.extensions ?? []).filter((p) => Object.hasOwn(modules, p)),
      ...Object.keys(modules).sort(),
    ]),
  ]
  const findings = new Findings([...partOrder, ...moduleOrder])
  const cx: CheckContext = {
    partPaths: new Set(partOrder),
    partIds: new Map(),
    modules: new Map(),
    moduleOrder,
    entry: input.order.find((p) => Object.hasOwn(input.parts, p)),
    order: input.order,
    assets: input.assets ? new Set(input.assets) : undefined,
    requires: new Set(input.requires ?? []),
    sessionKeys: [],
    hostVariables: new Set(input.hostVariables ?? []),
    flat: input.flat ?? false,
    v11: false,
    phase: PHASE.manifest,
    report(file, code, message, pos, field) {
      const at = pos ? { path: file, line: pos.line, column: pos.column } : { path: file, field }
      findings.add(createDiagnostic(code, message, at), cx.phase)
    },
    reserve: () => findings.reserve(),
    reportAt(seq, phase, file, code, message, pos) {
      findings.add(
        createDiagnostic(code, message, { path: file, line: pos.line, column: pos.column }),
        phase,
        seq,
      )
    },
  }
  const lang = checkManifestFields(cx, input)
  cx.v11 = lang !== '1.0'
  // Modules first (they are small and every part's scope needs them), then the parts one by one.
  for (const path of moduleOrder) {
    const r = parseModule(modules[path]!, { path, lang })
    for (const d of r.diagnostics) findings.add(d, PHASE.parse)
    cx.modules.set(path, r.ast)
  }
  cx.phase = PHASE.modules
  const moduleScopes = checkModules(cx)
  const names = new NameChecks(cx, moduleScopes)
  const parts = new PartChecks(cx)
  const partSets = new Map<string, string>()
  for (const path of partOrder) {
    const r = parseStory(input.parts[path]!, { path, lang })
    for (const d of r.diagnostics) findings.add(d, PHASE.parse)
    parts.scan(path, r.ast)
    cx.phase = PHASE.partUses
    const scope = scopeOf(cx, path, r.ast.declarations.uses, true)
    if (r.ast.declarations.consts) checkPartConsts(cx, path, r.ast.declarations.consts, scope)
    declarePartSets(cx, path, r.ast.declarations.items ?? [], scope, partSets)
    names.scanPart(path, r.ast, scope)
  }
  parts.finish()
  names.finish()
  return findings.sorted()
}

/**
 * 1.1: a part's `{items}` join its scope; a name a module it uses, or another part, declares is
 * `story/duplicate-declaration` (a set's name stands for one declaration in the reading state).
 */
function declarePartSets(
  cx: CheckContext,
  path: string,
  decls: ItemsDecl[],
  scope: Scope,
  partSets: Map<string, string>,
): void {
  for (const d of decls) {
    const other = scope.sets.get(d.name)?.module ?? partSets.get(d.name)
    const clash =
      other !== undefined
        ? `'${d.name}' is already a set of '${other}'; declare it once, in a module, to share it`
        : scope.consts.has(d.name) || scope.fns.has(d.name) || BUILTINS.has(d.name)
          ? `'${d.name}' is already a constant or function; name the set otherwise`
          : undefined
    if (clash) {
      cx.report(path, 'story/duplicate-declaration', clash, d.namePos)
      continue
    }
    partSets.set(d.name, path)
    addSet(
      scope,
      d.name,
      d.items.map((x) => x.name),
      path,
    )
  }
}

/**
 * The findings of one run with their sort keys: file (parts in play order, then modules; others
 * first), line, column, then phase and report order, which is the order the checks ran in when
 * they each walked the whole story.
 */
class Findings {
  private readonly items: Array<{ d: Diagnostic; rank: number; phase: number; seq: number }> = []
  private readonly rank: Map<string, number>
  private seq = 0

  constructor(order: string[]) {
    this.rank = new Map(order.map((p, i) => [p, i + 1]))
  }

  reserve(): number {
    return this.seq++
  }

  add(d: Diagnostic, phase: number, seq = this.seq++): void {
    this.items.push({ d, rank: this.rank.get(d.path ?? '') ?? 0, phase, seq })
  }

  sorted(): Diagnostic[] {
    return this.items
      .sort(
        (a, b) =>
          a.rank - b.rank ||
          (a.d.line ?? 0) - (b.d.line ?? 0) ||
          (a.d.column ?? 0) - (b.d.column ?? 0) ||
          a.phase - b.phase ||
          a.seq - b.seq,
      )
      .map((x) => x.d)
  }
}

/** Reports `story_lang` and `session.json` problems; returns the version to read the files at. */
function checkManifestFields(cx: CheckContext, input: CheckStoryInput): StoryLang {
  const declared = storyLangOf(input.storyLang)
  if ('error' in declared) cxReport(cx, 'manifest.json', 'story/lang-version', 'story_lang', declared.error)
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
  // A version this library cannot read is still checked as far as it can: at the newest it knows.
  return readingLang(input.storyLang)
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
