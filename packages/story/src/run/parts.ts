/**
 * Compiled parts: a part's text parsed, its modules bound and its body compiled, cached per story
 * source so that later runs of it (a resume) reuse the code. Internal.
 */
import type { Diagnostic, StorySourceLike } from '@spkg/manifest'
import { readingLang, type StoryLang } from '../lang.ts'
import { readPart } from '../parse/parse-story.ts'
import type { Instr } from './code.ts'
import { compileBody, compileDefault } from './compile.ts'
import { compileExpr } from './expr.ts'
import { addSetDecl, constVm, ModuleRegistry, mergeScopes, moduleClosure } from './modules.ts'
import { type SetDecl, setDecl } from './sets.ts'
import type { Vm } from './vm.ts'

/** A compiled part. */
export interface Part {
  file: string
  code: Instr[]
  /** Heading, anchor and named-group ids → addresses. */
  ids: Map<string, number>
  /** The source line of each instruction, for the messages of a stopped loop. */
  lines: number[]
  /** 1.1: the decision key of each explicit option id. */
  optionGroups: Map<string, string>
  tags: string[]
  seed: number | undefined
  defaults: Array<(m: Vm) => void>
  /** 1.1: the set declarations of the part and of the modules it binds. */
  sets: SetDecl[]
  /** The parse problems of the part and of the modules it binds. */
  diagnostics: Diagnostic[]
}

/** Compiled parts and modules per story source, shared by its runs (resume replays without re-parsing). */
const CACHE = new WeakMap<
  object,
  { lang: StoryLang; registry: ModuleRegistry; parts: Map<string, { text: string; part: Part }> }
>()

function cacheOf(source: StorySourceLike) {
  let c = CACHE.get(source)
  if (!c) {
    // A version the engine cannot read never gets here (the run refuses it).
    const lang = readingLang(source.lang)
    c = { lang, registry: new ModuleRegistry(source.modules ?? [], lang), parts: new Map() }
    CACHE.set(source, c)
  }
  return c
}

/** The compiled part at `path` of `source` with the text `text`: from the cache when the text is the same. */
export function compilePart(source: StorySourceLike, path: string, text: string): Part {
  const cache = cacheOf(source)
  const hit = cache.parts.get(path)
  if (hit && hit.text === text) return hit.part
  const part = compile(path, text, cache.registry, cache.lang)
  cache.parts.set(path, { text, part })
  return part
}

function compile(path: string, text: string, registry: ModuleRegistry, lang: StoryLang): Part {
  // without the author lints (parse/lint.ts): a reader has no use for them
  const { ast, diagnostics } = readPart(text, { path, lang })
  const mods = registry.bindPart(ast.declarations.uses, path, diagnostics)
  const module = mergeScopes(mods.map((m) => m.own))
  // 1.1: the part's own constants, evaluated once from literals and the constants before them
  if (ast.declarations.consts) {
    const cvm = constVm(path, diagnostics)
    for (const c of ast.declarations.consts)
      module.consts.set(c.name, compileExpr(c.e, { file: path, module, params: [] })(cvm))
  }
  const sets: SetDecl[] = []
  for (const d of ast.declarations.items ?? []) {
    if (module.sets.has(d.name)) continue // story/duplicate-declaration, reported by the checker
    const decl = setDecl(d.name, d.items)
    sets.push(decl)
    addSetDecl(module, decl)
  }
  for (const m of moduleClosure(mods)) sets.push(...m.sets)
  const body = compileBody(ast.body, { file: path, module, params: [], part: true, v11: lang !== '1.0' })
  const scope = {
    file: path,
    module,
    params: [],
    chain: [],
    locals: new Map(),
    headings: new Set<string>(),
  }
  const own = new Set(ast.declarations.consts?.map((c) => c.name))
  const defaults = ast.declarations.defaults.map((d) =>
    // a default of the part's own constant changes nothing (the checker reports it too)
    own.has(d.name)
      ? (m: Vm) =>
          m.report(
            'story/const-assign',
            `'${d.name}' is a constant of this part and cannot be assigned`,
            path,
            d.pos,
          )
      : compileDefault(d, scope),
  )
  for (const m of moduleClosure(mods)) defaults.push(...m.defaults)
  return {
    file: path,
    code: body.code,
    ids: body.ids,
    lines: body.lines,
    optionGroups: body.optionGroups,
    tags: ast.declarations.tags,
    seed: ast.declarations.seed?.value,
    defaults,
    sets,
    diagnostics,
  }
}
