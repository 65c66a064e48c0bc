/**
 * Minification of story sources (issue 21, first piece): comment lines go, runs of blank lines
 * become one, trailing spaces go, and story variables (the names some `{set}` assigns) get short
 * names, and so do module functions, constants and passages, recorded in a names map so that
 * {@link unminifyStory} restores them. Never renamed: part and module file names, ids (headings,
 * anchors, groups, options: they are state keys and link targets), parameters, locals, built-ins,
 * extern and `{call}` names, and any name
 * in `keep` (the keys of `session.json`). Lossless by construction and by check: the result is
 * parsed again and must give the same syntax tree, names mapped, or the minifier refuses
 * (`minify/unsafe`) rather than change the story.
 */
import type { Expr, Inline, ModuleAst, Node, PartAst, Pos, SetStmt } from '../ast.ts'
import { BUILTINS, REF_BUILTINS } from '../builtins.ts'
import { KEYWORDS } from '../parse/expression.ts'
import { parseModule } from '../parse/parse-module.ts'
import { parseStory } from '../parse/parse-story.ts'

/** One source file: an archive path (`story/0001-inn.sty`, `extensions/lib.xty`) and its text. */
export interface StoryFile {
  path: string
  text: string
}

/** The names map (`META-PKG/names.json`): short name → original name, per kind. */
export interface NamesMap {
  version: 1
  /** Story variables (the only names a reading state holds). */
  variables: Record<string, string>
  /** Module functions, constants and passages. */
  functions?: Record<string, string>
}

/** What {@link minifyStory} returns. */
export interface MinifyResult {
  files: StoryFile[]
  names: NamesMap
}

/** Options of {@link minifyStory}. */
export interface MinifyOptions {
  /** Names never renamed (the keys of `session.json`, variables a host reads). */
  keep?: readonly string[]
}

/** A refusal of the minifier; `code` is stable. */
export class MinifyError extends Error {
  override name = 'MinifyError'
  constructor(
    readonly code: 'minify/invalid-story' | 'minify/unsafe' | 'minify/bad-names-map',
    message: string,
    readonly path?: string,
  ) {
    super(message)
  }
}

type Parsed = { file: StoryFile; ast: PartAst | ModuleAst }

/** A place a variable name is written: its position and the name. */
interface Occurrence {
  pos: Pos
  name: string
}

function parse(file: StoryFile): Parsed {
  const isModule = file.path.endsWith('.xty')
  const r = isModule
    ? parseModule(file.text, { path: file.path })
    : parseStory(file.text, { path: file.path })
  const bad = r.diagnostics.find((d) => d.severity === 'error' || d.severity === 'fatal')
  if (bad)
    throw new MinifyError(
      'minify/invalid-story',
      `${file.path}:${bad.line}:${bad.column}: ${bad.message} (fix the story before minifying)`,
      file.path,
    )
  return { file, ast: r.ast }
}

/** Collects the variable names a file assigns and reads, and the names that must not change. */
class Collector {
  readonly assigned = new Set<string>()
  /** Module functions, constants and passages, defined or used. */
  readonly defs = new Set<string>()
  readonly fixed = new Set<string>()
  readonly occurrences: Occurrence[] = []

  expr(e: Expr): void {
    switch (e.k) {
      case 'name':
        this.occurrences.push({ pos: e.pos, name: e.name })
        break
      case 'list':
        for (const i of e.items) this.expr(i)
        break
      case 'un':
        this.expr(e.e)
        break
      case 'bin':
        this.expr(e.a)
        this.expr(e.b)
        break
      case 'call':
        if (e.callee.includes('.')) this.fixed.add(e.callee)
        else this.occurrences.push({ pos: e.pos, name: e.callee })
        for (const a of e.args) this.expr(a)
        break
      case 'index':
        this.expr(e.e)
        this.expr(e.index)
        break
      case 'field':
        this.expr(e.e)
        break
      default:
        break
    }
  }

  def(name: string, pos: Pos): void {
    this.defs.add(name)
    this.occurrences.push({ pos, name })
  }

  set(s: SetStmt): void {
    this.assigned.add(s.name)
    this.occurrences.push({ pos: s.namePos, name: s.name })
    this.expr(s.e)
  }

  inlines(list: readonly Inline[]): void {
    for (const i of list) {
      if (i.k === 'interp') this.expr(i.e)
      else if (i.k === 'set') this.set(i.stmt)
      else if (i.k === 'link') this.inlines(i.body)
      else if (i.k === 'if') {
        for (const b of i.branches) {
          this.expr(b.cond)
          this.inlines(b.body)
        }
        this.inlines(i.otherwise)
      }
    }
  }

  nodes(list: readonly Node[]): void {
    for (const n of list) {
      switch (n.kind) {
        case 'paragraph':
          for (const l of n.lines) this.inlines(l)
          break
        case 'heading':
          this.inlines(n.label)
          break
        case 'group':
          for (const o of n.options) {
            if (o.guard) this.expr(o.guard)
            this.inlines(o.label)
            this.nodes(o.body)
          }
          break
        case 'set':
          this.set(n.stmt)
          break
        case 'local':
          this.fixed.add(n.name)
          this.expr(n.e)
          break
        case 'if':
          for (const b of n.branches) {
            this.expr(b.cond)
            this.nodes(b.body)
          }
          this.nodes(n.otherwise)
          break
        case 'insert':
          this.occurrences.push({ pos: n.namePos, name: n.name })
          for (const a of n.args) this.expr(a)
          break
        case 'call':
          this.fixed.add(n.ns)
          this.fixed.add(n.fn)
          for (const a of n.args) this.expr(a)
          break
        default:
          break
      }
    }
  }

  file(ast: PartAst | ModuleAst): void {
    if (ast.kind === 'part') {
      for (const s of ast.declarations.defaults) this.set(s)
      this.nodes(ast.body)
      return
    }
    for (const s of ast.defaults) this.set(s)
    for (const c of ast.consts) {
      this.def(c.name, c.namePos)
      this.expr(c.e)
    }
    for (const f of ast.fns) {
      this.def(f.name, f.namePos)
      for (const p of f.params) this.fixed.add(p)
      this.expr(f.e)
    }
    for (const p of ast.passages) {
      this.def(p.name, p.namePos)
      for (const q of p.params) this.fixed.add(q)
      this.nodes(p.body)
    }
    for (const x of ast.externs) {
      this.fixed.add(x.ns)
      this.fixed.add(x.fn)
      for (const p of x.params) this.fixed.add(p)
    }
  }
}

/** Short names in order: a…z, aa…, never a keyword, a built-in or a name in `taken`. */
function* shortNames(taken: ReadonlySet<string>): Generator<string> {
  const letters = 'abcdefghijklmnopqrstuvwxyz'
  for (let n = 1; ; n++) {
    const counter = new Array<number>(n).fill(0)
    for (;;) {
      const name = counter.map((i) => letters[i]).join('')
      if (!KEYWORDS.has(name) && !BUILTINS.has(name) && !taken.has(name)) yield name
      let k = n - 1
      while (k >= 0 && ++counter[k]! === 26) counter[k--] = 0
      if (k < 0) break
    }
  }
}

const LINE_BREAK = /\r\n|\r|\n/

/** Replaces the names at their positions (1-based line, code-point column), checking each. */
function rewrite(
  file: StoryFile,
  occurrences: readonly Occurrence[],
  rename: ReadonlyMap<string, string>,
): string {
  const lines = file.text.replace(/^\uFEFF/, '').split(LINE_BREAK)
  const byLine = new Map<number, Occurrence[]>()
  for (const o of occurrences)
    if (rename.has(o.name)) byLine.set(o.pos.line, [...(byLine.get(o.pos.line) ?? []), o])
  for (const [line, list] of byLine) {
    const chars = Array.from(lines[line - 1] ?? '')
    for (const o of [...list].sort((a, b) => b.pos.column - a.pos.column)) {
      const at = o.pos.column - 1
      const old = Array.from(o.name)
      if (chars.slice(at, at + old.length).join('') !== o.name)
        throw new MinifyError(
          'minify/unsafe',
          `${file.path}:${line}:${o.pos.column}: '${o.name}' not found there`,
          file.path,
        )
      chars.splice(at, old.length, ...Array.from(rename.get(o.name)!))
    }
    lines[line - 1] = chars.join('')
  }
  return `${lines.join('\n')}`
}

/** Comment lines become blank, trailing spaces go (not after a `\`), runs of blank lines become one. */
function squeeze(text: string): string {
  const out: string[] = []
  for (const raw of text.split('\n')) {
    let line = /^\s*\/\//.test(raw) ? '' : raw
    const trimmed = line.replace(/[ \t]+$/, '')
    if (!trimmed.endsWith('\\')) line = trimmed
    if (line.trim() === '' && (out.length === 0 || out[out.length - 1] === '')) continue
    out.push(line.trim() === '' ? '' : line)
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop()
  return `${out.join('\n')}\n`
}

/** The tree without positions, names mapped: what must not change. */
function shape(ast: PartAst | ModuleAst, rename: ReadonlyMap<string, string>): string {
  return JSON.stringify(ast, (k, v) => {
    if (k === 'pos' || k === 'namePos' || k === 'targetPos' || k === 'pathPos' || k === 'file')
      return undefined
    if ((k === 'name' || k === 'callee') && typeof v === 'string') return rename.get(v) ?? v
    return v
  })
}

function renameFiles(
  parsed: readonly Parsed[],
  collectors: readonly Collector[],
  rename: ReadonlyMap<string, string>,
  squeezeText: boolean,
): StoryFile[] {
  return parsed.map((p, i) => {
    const renamed = rewrite(p.file, collectors[i]!.occurrences, rename)
    const text = squeezeText ? squeeze(renamed) : renamed
    const again = parse({ path: p.file.path, text })
    if (shape(again.ast, new Map()) !== shape(p.ast, rename))
      throw new MinifyError(
        'minify/unsafe',
        `${p.file.path}: the minified text would not mean the same; left unminified`,
        p.file.path,
      )
    return { path: p.file.path, text }
  })
}

/**
 * Minifies the sources of a story (parts and modules together: a variable keeps one short name
 * across files). See the module comment.
 *
 * @throws MinifyError `minify/invalid-story` when a file has errors, `minify/unsafe` when the
 * result would not parse to the same tree (never a changed story)
 * @example
 * const { files, names } = minifyStory([{ path: 'story/0001-inn.sty', text }], { keep: ['name'] })
 */
export function minifyStory(files: readonly StoryFile[], options: MinifyOptions = {}): MinifyResult {
  const parsed = files.map(parse)
  const collectors = parsed.map((p) => {
    const c = new Collector()
    c.file(p.ast)
    return c
  })
  const fixed = new Set<string>(options.keep ?? [])
  const used = new Set<string>()
  const assigned = new Set<string>()
  const defs = new Set<string>()
  for (const c of collectors) {
    for (const n of c.fixed) fixed.add(n)
    for (const n of c.assigned) assigned.add(n)
    for (const n of c.defs) defs.add(n)
    for (const o of c.occurrences) used.add(o.name)
  }
  const ok = (n: string) => !fixed.has(n) && !BUILTINS.has(n) && !REF_BUILTINS.has(n)
  const renamable = [...assigned].filter(ok).sort()
  const renamableDefs = [...defs].filter((n) => ok(n) && !assigned.has(n)).sort()
  // Short names avoid every name written anywhere (renamed or not), so no two variables can meet.
  const taken = new Set([...fixed, ...used, ...assigned, ...defs])
  const gen = shortNames(taken)
  const rename = new Map<string, string>()
  const variables: Record<string, string> = {}
  for (const n of renamable) {
    const s = gen.next().value as string
    rename.set(n, s)
    variables[s] = n
  }
  const functions: Record<string, string> = {}
  for (const n of renamableDefs) {
    const s = gen.next().value as string
    rename.set(n, s)
    functions[s] = n
  }
  const names: NamesMap = { version: 1, variables, ...(renamableDefs.length ? { functions } : {}) }
  return { files: renameFiles(parsed, collectors, rename, true), names }
}

/**
 * Restores the original variable names of minified sources from their names map (comments do not
 * come back; the story plays the same either way).
 *
 * @throws MinifyError `minify/bad-names-map` when the map is not one, `minify/unsafe` as minifying
 * @example
 * const original = unminifyStory(minified.files, minified.names)
 */
export function unminifyStory(files: readonly StoryFile[], names: NamesMap): StoryFile[] {
  if (
    names === null ||
    typeof names !== 'object' ||
    names.version !== 1 ||
    typeof names.variables !== 'object' ||
    names.variables === null ||
    Object.values(names.variables).some((v) => typeof v !== 'string') ||
    (names.functions !== undefined &&
      (typeof names.functions !== 'object' ||
        names.functions === null ||
        Object.values(names.functions).some((v) => typeof v !== 'string')))
  )
    throw new MinifyError(
      'minify/bad-names-map',
      'the names map is not {version: 1, variables: {short: original}}',
    )
  const rename = new Map([...Object.entries(names.variables), ...Object.entries(names.functions ?? {})])
  const parsed = files.map(parse)
  const collectors = parsed.map((p) => {
    const c = new Collector()
    c.file(p.ast)
    return c
  })
  return renameFiles(parsed, collectors, rename, false)
}
