/**
 * Minification of story sources: comment lines go, runs of blank lines become one,
 * trailing spaces go, and author-chosen identifiers get short names recorded in a names map so that
 * {@link unminifyStory} restores them: story variables (the names some `{set}` assigns), module
 * functions, constants and passages, 1.1 set declarations and items, and the explicit ids of
 * headings, anchors and choice groups (with every reference to them: jumps, `#id` in
 * `visits()`/`passed()`/`picked()`, and the `:id` of gates and links, across parts). One short name
 * means one original name, whatever its kind. A renamed item prints what it printed: its
 * declaration gives its original name as its text (`{items a = b "rope"}`), so the minified story
 * plays the same without the names map.
 *
 * Never renamed: part and module file names (readers and the manifest see them), option ids (a
 * story prints them with `picked()`, hosts answer pauses with them), implicit ids (`h3`, `bar@1`:
 * positional, they follow their section), parameters, locals, built-ins, extern and `{call}`
 * names, the sets and items of a story that calls the host (a host function receives sets by item
 * name), and any name in `keep` (the keys of `session.json`). Reading states name variables, ids
 * and the declarations and items of saved sets; `translateStateNames` maps a state between the
 * builds. Lossless by construction and by check: the result is parsed again and must give the same
 * syntax tree, names mapped, or the minifier refuses (`minify/unsafe`) rather than change the story.
 */
import { type NamesMap, RESERVED_WORDS } from '@spkg/manifest'
import type { Expr, Inline, ItemsDecl, JumpNode, ModuleAst, Node, PartAst, Pos, SetStmt } from '../ast.ts'
import { BUILTINS, REF_BUILTINS } from '../builtins.ts'
import type { StoryLang } from '../lang.ts'
import { parseModule } from '../parse/parse-module.ts'
import { parseStory } from '../parse/parse-story.ts'
import { renameId } from './state-names.ts'

/** One source file: an archive path (`story/0001-inn.sty`, `extensions/lib.xty`) and its text. */
export interface StoryFile {
  path: string
  text: string
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
  /**
   * Rename every name and id, even one whose uses save fewer bytes than its names-map entry costs
   * (by default such a name keeps its original spelling: the package carries the map too).
   * @default false
   */
  renameAll?: boolean
  /** The story-language version the files are written in (`manifest.story_lang`). @default '1.0' */
  lang?: StoryLang
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

type Parsed = { file: StoryFile; ast: PartAst | ModuleAst; lang: StoryLang }

/** A place a name is written: its position, the name, and whether it is an id (else a variable or a definition). */
interface Occurrence {
  pos: Pos
  name: string
  id?: true
  /** 1.1: the `rope` of `Tools.rope`: an item only when `Tools` (this) is a set, else a map's key. */
  field?: string
  /**
   * 1.1: an item where its `{items}` declaration lists it: what it prints (its text, else its
   * name) and how many characters its name and text take. Renamed, it keeps printing that text.
   */
  shown?: string
  span?: number
}

function parse(file: StoryFile, lang: StoryLang): Parsed {
  const isModule = file.path.endsWith('.xty')
  const r = isModule
    ? parseModule(file.text, { path: file.path, lang })
    : parseStory(file.text, { path: file.path, lang })
  const bad = r.diagnostics.find((d) => d.severity === 'error' || d.severity === 'fatal')
  if (bad)
    throw new MinifyError(
      'minify/invalid-story',
      `${file.path}:${bad.line}:${bad.column}: ${bad.message} (fix the story before minifying)`,
      file.path,
    )
  return { file, ast: r.ast, lang }
}

/** The 1-based code-point column of the code-unit index `at` of `line`. */
const columnOf = (line: string, at: number) => Array.from(line.slice(0, at)).length + 1

/** Collects the names a file assigns, defines and reads, and the names that must not change. */
class Collector {
  /** The file's lines (to find a heading's `[#id]`, which the tree does not place). */
  constructor(private readonly lines: readonly string[]) {}
  readonly assigned = new Set<string>()
  /** Explicit ids of headings, anchors and groups declared in the file. */
  readonly ids = new Set<string>()
  /** Option ids and every id referenced: never used as short names; option ids never renamed. */
  readonly optionIds = new Set<string>()
  readonly idsSeen = new Set<string>()
  private readonly idPlaces = new Set<string>()
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
        if (e.callee.includes('.')) {
          this.fixed.add(e.callee)
          this.host = true
        } else this.occurrences.push({ pos: e.pos, name: e.callee })
        for (const a of e.args) this.expr(a)
        break
      case 'index':
        this.expr(e.e)
        this.expr(e.index)
        break
      case 'ref':
        this.id(e.id, { line: e.pos.line, column: e.pos.column + 1 })
        break
      case 'target':
        this.target(e.target, e.pos)
        break
      case 'field':
        this.expr(e.e)
        // `pos` is the `.`, the name follows it
        if (e.e.k === 'name')
          this.occurrences.push({
            pos: { line: e.pos.line, column: e.pos.column + 1 },
            name: e.name,
            field: e.e.name,
          })
        break
      default:
        break
    }
  }

  /** An id written at `pos` (its first letter). */
  id(name: string, pos: Pos): void {
    this.idsSeen.add(name)
    const place = `${pos.line}:${pos.column}`
    if (this.idPlaces.has(place)) return
    this.idPlaces.add(place)
    this.occurrences.push({ pos, name, id: true })
  }

  /** The `:id` of a gate or link target written at `pos`. */
  target(target: string, pos: Pos): void {
    const colon = target.indexOf(':')
    if (colon < 0) return
    this.id(target.slice(colon + 1), {
      line: pos.line,
      column: pos.column + Array.from(target.slice(0, colon + 1)).length,
    })
  }

  jump(j: JumpNode | undefined): void {
    if (j?.target) this.id(j.target, { line: j.pos.line, column: j.pos.column + 1 })
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
      else if (i.k === 'link') {
        this.target(i.target, i.targetPos)
        this.inlines(i.body)
      } else if (i.k === 'if') {
        for (const b of i.branches) {
          this.expr(b.cond)
          this.inlines(b.body)
        }
        this.inlines(i.otherwise)
      } else if (i.k === 'alt') {
        this.alts++
        for (const item of i.items) this.inlines(item)
      }
    }
  }

  /** 1.1: alternatives seen; their state keys name their passage, which then keeps its name. */
  alts = 0
  /** 1.1: set declarations → their items. */
  readonly sets = new Map<string, string[]>()
  /** Whether the file calls the host (`{call}`, `ns.fn()`, `{extern}`): a host receives sets by item name. */
  host = false

  nodes(list: readonly Node[]): void {
    for (const n of list) {
      switch (n.kind) {
        case 'paragraph':
          for (const l of n.lines) this.inlines(l)
          break
        case 'heading':
          if (n.explicitId) {
            const line = this.lines[n.pos.line - 1] ?? ''
            this.ids.add(n.id)
            this.id(n.id, { line: n.pos.line, column: columnOf(line, line.lastIndexOf(`[#${n.id}]`)) + 2 })
          }
          this.inlines(n.label)
          break
        case 'anchor':
          this.ids.add(n.id)
          this.id(n.id, { line: n.pos.line, column: n.pos.column + 2 })
          break
        case 'jump':
          this.jump(n)
          break
        case 'gate':
          this.target(n.target, n.targetPos)
          break
        case 'tunnel':
        case 'tunnel-return':
        case 'thread':
          // 1.1: `#id` of this file, or a part target
          if (n.target === undefined) break
          if (n.kind !== 'thread' && n.part) this.target(n.target, n.targetPos!)
          else this.id(n.target, { line: n.targetPos!.line, column: n.targetPos!.column + 1 })
          break
        case 'group':
          if (n.explicitId) {
            this.ids.add(n.id)
            this.id(n.id, { line: n.pos.line, column: n.pos.column + 2 })
          }
          for (const f of n.ifs ?? []) for (const c of f.conds) this.expr(c)
          for (const o of n.options) {
            if (o.explicitId) this.optionIds.add(o.id)
            if (o.guard) this.expr(o.guard)
            this.inlines(o.label)
            if (o.echo) this.inlines(o.echo.after)
            this.jump(o.jump)
            this.nodes(o.body)
          }
          break
        case 'set':
          this.set(n.stmt)
          break
        case 'local':
        case 'temp':
          this.fixed.add(n.name)
          this.expr(n.e)
          break
        case 'return':
          if (n.e) this.expr(n.e)
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
          this.host = true
          this.fixed.add(n.ns)
          this.fixed.add(n.fn)
          for (const a of n.args) this.expr(a)
          break
        case 'alt':
          this.alts++
          for (const b of n.branches) this.nodes(b)
          break
        default:
          break
      }
    }
  }

  /**
   * 1.1: set declarations and their items are renamed like any name; a renamed item keeps its
   * printed text in its declaration (`{items a = b "rope"}`), so the story prints the same.
   */
  items(decls: readonly ItemsDecl[] | undefined): void {
    for (const d of decls ?? []) {
      this.sets.set(d.name, [...(this.sets.get(d.name) ?? []), ...d.items.map((x) => x.name)])
      this.occurrences.push({ pos: d.namePos, name: d.name })
      for (const x of d.items) {
        const chars = Array.from(this.lines[x.pos.line - 1] ?? '')
        const after = chars.slice(x.pos.column - 1 + Array.from(x.name).length).join('')
        const text = x.text === undefined ? undefined : /^\s*"[^"]*"/.exec(after)?.[0]
        const span = Array.from(x.name).length + (text === undefined ? 0 : Array.from(text).length)
        this.occurrences.push({ pos: x.pos, name: x.name, shown: x.text ?? x.name, span })
      }
    }
  }

  file(ast: PartAst | ModuleAst): void {
    if (ast.kind === 'part') {
      this.items(ast.declarations.items)
      for (const s of ast.declarations.defaults) this.set(s)
      for (const c of ast.declarations.consts ?? []) {
        this.def(c.name, c.namePos)
        this.expr(c.e)
      }
      this.nodes(ast.body)
      return
    }
    this.items(ast.items)
    for (const s of ast.defaults) this.set(s)
    for (const f of ast.blockFns ?? []) {
      this.def(f.name, f.namePos)
      for (const p of f.params) this.fixed.add(p)
      this.nodes(f.body)
    }
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
      const before = this.alts
      this.nodes(p.body)
      // The ids and state keys of a passage's alternatives (`greet~1`, `<module>:greet~1@seq`)
      // name the passage: it keeps its name, and so does an id spelled like it.
      if (this.alts > before) {
        this.fixed.add(p.name)
        this.optionIds.add(p.name)
      }
    }
    for (const x of ast.externs) {
      this.host = true
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
      if (!RESERVED_WORDS.has(name) && !BUILTINS.has(name) && !taken.has(name)) yield name
      let k = n - 1
      while (k >= 0 && ++counter[k]! === 26) counter[k--] = 0
      if (k < 0) break
    }
  }
}

const LINE_BREAK = /\r\n|\r|\n/

/** Short → original (or the reverse) per kind: names (variables, functions, sets, items...) and ids. */
interface Renames {
  names: ReadonlyMap<string, string>
  ids: ReadonlyMap<string, string>
  /** 1.1: the set names (as the files being renamed write them) whose `Set.item` fields are items. */
  bases: ReadonlySet<string>
}

const renamed = (r: Renames, o: Occurrence) =>
  o.field !== undefined && !r.bases.has(o.field) ? undefined : (o.id ? r.ids : r.names).get(o.name)

/** Replaces the names at their positions (1-based line, code-point column), checking each. */
function rewrite(file: StoryFile, occurrences: readonly Occurrence[], rename: Renames): string {
  const lines = file.text.replace(/^\uFEFF/, '').split(LINE_BREAK)
  const byLine = new Map<number, Occurrence[]>()
  for (const o of occurrences)
    if (renamed(rename, o) !== undefined) byLine.set(o.pos.line, [...(byLine.get(o.pos.line) ?? []), o])
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
      const to = renamed(rename, o)!
      // an item's declaration says what it prints unless its name does
      const text = o.shown === undefined || o.shown === to ? to : `${to} "${o.shown}"`
      chars.splice(at, o.span ?? old.length, ...Array.from(text))
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
function shape(ast: PartAst | ModuleAst, rename: Renames): string {
  return JSON.stringify(ast, (k, v) => {
    if (k === 'pos' || k === 'namePos' || k === 'targetPos' || k === 'pathPos' || k === 'file')
      return undefined
    // 1.1: `Set.item` names an item (renamed) when `Set` is a set, else a map's key (never renamed)
    if (v?.k === 'field') {
      const item = v.e.k === 'name' && rename.bases.has(v.e.name)
      return { k: 'field', e: v.e, key: item ? (rename.names.get(v.name) ?? v.name) : v.name }
    }
    // 1.1: an `{items}` declaration: each item's name, and the text it prints (its name if none)
    if (v?.namePos && v.k === undefined && v.kind === undefined && Array.isArray(v.items))
      return {
        name: v.name,
        items: v.items.map((x: ItemsDecl['items'][number]) => ({ name: x.name, shown: x.text ?? x.name })),
      }
    if ((k === 'name' || k === 'callee') && typeof v === 'string') return rename.names.get(v) ?? v
    if ((k === 'id' || k === 'target') && typeof v === 'string') return renameId(v, rename.ids)
    return v
  })
}

const NO_RENAMES: Renames = { names: new Map(), ids: new Map(), bases: new Set() }

function renameFiles(
  parsed: readonly Parsed[],
  collectors: readonly Collector[],
  rename: Renames,
  squeezeText: boolean,
): StoryFile[] {
  return parsed.map((p, i) => {
    const text0 = rewrite(p.file, collectors[i]!.occurrences, rename)
    const text = squeezeText ? squeeze(text0) : text0
    const again = parse({ path: p.file.path, text }, p.lang)
    if (shape(again.ast, NO_RENAMES) !== shape(p.ast, rename))
      throw new MinifyError(
        'minify/unsafe',
        `${p.file.path}: the minified text would not mean the same; left unminified`,
        p.file.path,
      )
    return { path: p.file.path, text }
  })
}

function collect(parsed: readonly Parsed[]): Collector[] {
  return parsed.map((p) => {
    const c = new Collector(p.file.text.replace(/^\uFEFF/, '').split(LINE_BREAK))
    c.file(p.ast)
    return c
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
  const parsed = files.map((f) => parse(f, options.lang ?? '1.0'))
  const collectors = collect(parsed)
  const fixed = new Set<string>(options.keep ?? [])
  const used = new Set<string>()
  const assigned = new Set<string>()
  const defs = new Set<string>()
  const ids = new Set<string>()
  const fixedIds = new Set<string>()
  const idsSeen = new Set<string>()
  const sets = new Map<string, string[]>()
  let host = false
  for (const c of collectors) {
    for (const [n, items] of c.sets) sets.set(n, [...(sets.get(n) ?? []), ...items])
    host ||= c.host
    for (const n of c.fixed) fixed.add(n)
    for (const n of c.assigned) assigned.add(n)
    for (const n of c.defs) defs.add(n)
    for (const n of c.ids) ids.add(n)
    for (const n of c.optionIds) fixedIds.add(n)
    for (const n of c.idsSeen) idsSeen.add(n)
    for (const o of c.occurrences) if (!o.id) used.add(o.name)
  }
  // 1.1: a host function receives sets by item name, so a story that calls the host keeps its set
  // and item names; so does a set a parameter, temp or local may hide (`S.x` is then a map's key).
  for (const [n, items] of sets)
    if (host || fixed.has(n)) {
      fixed.add(n)
      for (const x of items) fixed.add(x)
    }
  const setNames = new Set([...sets.keys(), ...[...sets.values()].flat()])
  const ok = (n: string) => !fixed.has(n) && !BUILTINS.has(n) && !REF_BUILTINS.has(n)
  const renamable = [...assigned].filter(ok).sort()
  const renamableDefs = [...defs].filter((n) => ok(n) && !assigned.has(n)).sort()
  const renamableSets = [...setNames].filter((n) => ok(n) && !assigned.has(n) && !defs.has(n)).sort()
  const renamableIds = [...ids].filter((n) => !fixedIds.has(n)).sort()
  // Short names avoid every name and id written anywhere (renamed or not): no two names can meet,
  // and a short name stands for one original whatever its kind (diagnostics map back by word).
  const taken = new Set([...fixed, ...used, ...assigned, ...defs, ...idsSeen, ...fixedIds])
  // Most-used names get the shortest short names; a name is renamed only when what its uses save
  // pays for its entry in the names map (`"ab": "original",`), which the package carries too.
  // An item's declaration grows by its text when it is renamed (`rope` → `b "rope"`).
  const uses = new Map<string, number>()
  const declared = new Map<string, number>()
  for (const c of collectors)
    for (const o of c.occurrences) {
      const key = `${o.id ? '#' : ''}${o.name}`
      uses.set(key, (uses.get(key) ?? 0) + 1)
      if (o.shown !== undefined) declared.set(o.name, (declared.get(o.name) ?? 0) + 1)
    }
  type Candidate = { name: string; kind: 'variables' | 'functions' | 'ids' | 'sets'; count: number }
  const candidates: Candidate[] = [
    ...renamable.map((name) => ({ name, kind: 'variables' as const, count: uses.get(name) ?? 0 })),
    ...renamableDefs.map((name) => ({ name, kind: 'functions' as const, count: uses.get(name) ?? 0 })),
    ...renamableIds.map((name) => ({ name, kind: 'ids' as const, count: uses.get(`#${name}`) ?? 0 })),
    ...renamableSets.map((name) => ({ name, kind: 'sets' as const, count: uses.get(name) ?? 0 })),
  ].sort((x, y) => y.count - x.count || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))
  const gen = shortNames(taken)
  let next = gen.next().value as string
  const names = new Map<string, string>()
  const idMap = new Map<string, string>()
  const records = { variables: {} as Record<string, string>, functions: {}, ids: {}, sets: {} } as Record<
    Candidate['kind'],
    Record<string, string>
  >
  for (const c of candidates) {
    const d = c.kind === 'sets' ? (declared.get(c.name) ?? 0) : 0
    const saved = (c.name.length - next.length) * (c.count - d) - d * (next.length + 3)
    if (!options.renameAll && saved <= c.name.length + next.length + 8) continue
    ;(c.kind === 'ids' ? idMap : names).set(c.name, next)
    records[c.kind][next] = c.name
    next = gen.next().value as string
  }
  // a set or item also named as a variable or function shares its short name: `sets` lists it too,
  // as saved sets and diagnostics look their names up there
  for (const n of setNames) {
    const short = names.get(n)
    if (short !== undefined) records.sets[short] = n
  }
  const { variables, functions, ids: idRecord, sets: setRecord } = records
  const some = (r: Record<string, string>) => Object.keys(r).length > 0
  const map: NamesMap = {
    version: 1,
    variables,
    ...(some(functions) ? { functions } : {}),
    ...(some(idRecord) ? { ids: idRecord } : {}),
    ...(some(setRecord) ? { sets: setRecord } : {}),
  }
  const bases = new Set([...sets.keys()].filter((n) => !fixed.has(n)))
  return { files: renameFiles(parsed, collectors, { names, ids: idMap, bases }, true), names: map }
}

/**
 * Restores the original names and ids of minified sources from their names map (comments do not
 * come back; the story plays the same either way).
 *
 * @throws MinifyError `minify/bad-names-map` when the map is not one, `minify/unsafe` as minifying
 * @example
 * const original = unminifyStory(minified.files, minified.names)
 */
export function unminifyStory(
  files: readonly StoryFile[],
  names: NamesMap,
  options: { lang?: StoryLang } = {},
): StoryFile[] {
  const record = (r: unknown) =>
    r === undefined ||
    (typeof r === 'object' && r !== null && Object.values(r).every((v) => typeof v === 'string'))
  if (
    names === null ||
    typeof names !== 'object' ||
    names.version !== 1 ||
    names.variables === undefined ||
    !record(names.variables) ||
    !record(names.functions) ||
    !record(names.ids) ||
    !record(names.sets)
  )
    throw new MinifyError(
      'minify/bad-names-map',
      'the names map is not {version: 1, variables: {short: original}, functions?: {...}, ids?: {...}, sets?: {...}}',
    )
  const parsed = files.map((f) => parse(f, options.lang ?? '1.0'))
  const collectors = collect(parsed)
  return renameFiles(
    parsed,
    collectors,
    {
      names: new Map([
        ...Object.entries(names.variables),
        ...Object.entries(names.functions ?? {}),
        ...Object.entries(names.sets ?? {}),
      ]),
      ids: new Map(Object.entries(names.ids ?? {})),
      bases: new Set(collectors.flatMap((c) => [...c.sets.keys()])),
    },
    false,
  )
}
