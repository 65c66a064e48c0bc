/**
 * The editor features over a story folder: go to definition, completion, hover and document
 * symbols. Positions in and out are LSP positions (0-based lines, UTF-16 characters); the story
 * language counts columns in code points, converted here.
 */
import { type BlockFn, type Pos, parseModule, resolveModulePath, resolveTarget } from '@spkg/story'
import type { StoryFolder } from '../node/story-folder.ts'
import { BUILTIN_DOCS, BUILTIN_NAMES } from './builtins.ts'
import { type DefinedId, literalType, setCandidate, tempsIn } from './part-index.ts'

/** A 0-based LSP position. */
export interface LspPos {
  line: number
  character: number
}

/** A file location: archive path and 0-based line and character. */
export interface FileLocation {
  path: string
  line: number
  character: number
}

/** The UTF-16 offset of a 1-based code-point column in `line`. */
export function utf16Column(line: string, column: number): number {
  let offset = 0
  let n = 1
  for (const ch of line) {
    if (n >= column) break
    offset += ch.length
    n++
  }
  return offset
}

function lineOf(text: string, line: number): string {
  return text.split(/\r\n|\r|\n/)[line] ?? ''
}

/** The word (`[A-Za-z0-9_-]`) around a character of a line, with its start. */
function wordAt(line: string, ch: number): { word: string; start: number } {
  let s = ch
  let e = ch
  while (s > 0 && /[\w-]/.test(line[s - 1]!)) s--
  while (e < line.length && /[\w-]/.test(line[e]!)) e++
  return { word: line.slice(s, e), start: s }
}

/** Where the thing under the cursor is defined: a part, a scene id, a module or a module name. */
export function findDefinition(folder: StoryFolder, path: string, pos: LspPos): FileLocation | undefined {
  const text = folder.text(path)
  if (text === undefined) return undefined
  const line = lineOf(text, pos.line)
  if (path.endsWith('.sty')) {
    const index = folder.index(path)!
    for (const t of index.targets) {
      if (t.pos.line !== pos.line + 1) continue
      const start = utf16Column(line, t.pos.column)
      if (pos.character < start || pos.character > start + t.target.length) continue
      const { part, id } = resolveTarget(path, t.target)
      return locateId(folder, part, id)
    }
  }
  const use = /\{use\s+([^}\s]+)\s*\}/.exec(line)
  if (use) {
    const start = use.index + use[0].indexOf(use[1]!)
    if (pos.character >= start && pos.character <= start + use[1]!.length) {
      const candidates = [resolveModulePath(use[1]!, { flat: folder.flat }), `${use[1]}.xty`]
      const found = candidates.find((c) => folder.text(c) !== undefined)
      return found ? { path: found, line: 0, character: 0 } : undefined
    }
  }
  const { word, start } = wordAt(line, pos.character)
  if (!word) return undefined
  if (line[start - 1] === '#' && path.endsWith('.sty')) return locateId(folder, path, word)
  return locateName(folder, path, word)
}

function locateId(folder: StoryFolder, part: string, id: string | undefined): FileLocation | undefined {
  if (folder.text(part) === undefined) return undefined
  if (id === undefined) return { path: part, line: 0, character: 0 }
  const d = folder.index(part)!.ids.find((i) => i.id === id)
  return d ? { path: part, line: d.pos.line - 1, character: 0 } : undefined
}

/** A module function, constant or passage, or a variable's first plain `{set}` in a part. */
function locateName(folder: StoryFolder, from: string, name: string): FileLocation | undefined {
  for (const m of folder.modulePaths()) {
    const ast = moduleAst(folder, m)
    const decl = [
      ...ast.fns,
      ...(ast.blockFns ?? []),
      ...(ast.items ?? []),
      ...ast.passages,
      ...ast.consts,
      ...ast.defaults.map((d) => ({ ...d, pos: d.namePos })),
    ]
      .filter((d) => d.name === name)
      .map((d) => d.pos)[0]
    if (decl) return { path: m, line: decl.line - 1, character: 0 }
  }
  const parts = [from, ...folder.order, ...folder.partPaths()].filter((p) => p.endsWith('.sty'))
  const re = new RegExp(`\\{(?:set|local)\\s+${name.replace(/-/g, '\\-')}\\s*=`)
  for (const p of new Set(parts)) {
    const text = folder.text(p)
    if (text === undefined) continue
    const lines = text.split(/\r\n|\r|\n/)
    const at = lines.findIndex((l) => re.test(l))
    if (at >= 0) return { path: p, line: at, character: 0 }
  }
  return undefined
}

/** A completion item: the text inserted and what it is. */
export interface CompletionEntry {
  label: string
  kind: 'part' | 'scene' | 'variable' | 'function' | 'module' | 'keyword'
  detail?: string
  /** Sorts before the others when set (the items of the set a `{set bag += …}` adds to). */
  sortText?: string
  /** The text the item replaces: the prefix typed so far, on the cursor's line (LSP positions). */
  range: { start: LspPos; end: LspPos }
}

type Item = Omit<CompletionEntry, 'range'>

/**
 * The command keywords after a `{`: in a part, a module, or both; the version that has them; and
 * whether one may stand inside a line of text (`Hello {if x}…`) or only at a line's start.
 */
const KEYWORDS: ReadonlyArray<{ word: string; in: 'part' | 'module' | 'both'; v11?: true; inline?: true }> = [
  { word: 'if', in: 'both', inline: true },
  { word: 'elif', in: 'both', inline: true },
  { word: 'else', in: 'both', inline: true },
  { word: 'end', in: 'both', inline: true },
  { word: 'set', in: 'both', inline: true },
  { word: 'use', in: 'both' },
  { word: 'insert', in: 'both' },
  { word: 'local', in: 'part' },
  { word: 'seed', in: 'part' },
  { word: 'call', in: 'part' },
  { word: 'const', in: 'module' },
  { word: 'fn', in: 'module' },
  { word: 'passage', in: 'module' },
  { word: 'extern', in: 'module' },
  // 1.1
  { word: 'seq', in: 'both', v11: true, inline: true },
  { word: 'cycle', in: 'both', v11: true, inline: true },
  { word: 'once', in: 'both', v11: true, inline: true },
  { word: 'shuffle', in: 'both', v11: true, inline: true },
  { word: 'or', in: 'both', v11: true },
  { word: 'items', in: 'both', v11: true },
  { word: 'temp', in: 'both', v11: true },
  { word: 'const', in: 'part', v11: true },
  { word: 'return', in: 'module', v11: true },
]

/**
 * Completions at a position: targets in a gate or link (and at 1.1 after `->` or `->->`), modules
 * after `{use`, ids after `#` (in `visits(#`, `turns(#`, `passed(#` and `picked(#` the ids each
 * counts), at 1.1 part targets in `visits(` and `turns(`, command keywords after `{` (1.1's only
 * at 1.1), and names inside `{…}` and `${…}`. Only the items that start with what is typed so far
 * are returned, each with the range of that prefix (so accepting one replaces it): after
 * `[[ 0004-endings.sty:`, the ids of that part.
 */
export function complete(folder: StoryFolder, path: string, pos: LspPos): CompletionEntry[] {
  const text = folder.text(path)
  if (text === undefined) return []
  const before = lineOf(text, pos.line).slice(0, pos.character)
  const typed = (prefix: string, items: Item[]): CompletionEntry[] => {
    const range = { start: { line: pos.line, character: pos.character - prefix.length }, end: pos }
    return items.filter((i) => i.label.startsWith(prefix)).map((i) => ({ ...i, range }))
  }
  const v11 = folder.lang !== '1.0'
  // 1.1: a tunnel into another part, `->->` going on there (a `#` starts an id instead)
  const tunnel = /^\s*->(?:->)?\s+([^\s#][^\s]*)$/.exec(before)
  if (tunnel && v11) return typed(tunnel[1]!, targets(folder, path))
  const target = /(?:\[\[\s*|\[[^\]]*\s>\s)([^\]\s]*)$/.exec(before)
  if (target) return typed(target[1]!, targets(folder, path))
  const use = /\{use\s+([^}\s]*)$/.exec(before)
  if (use) {
    return typed(
      use[1]!,
      folder.modulePaths().map((m) => {
        const short = /^extensions\/([^/]+)\.xty$/.exec(m)?.[1] ?? (folder.flat ? m.replace(/\.xty$/, '') : m)
        return { label: short, kind: 'module' as const, detail: m }
      }),
    )
  }
  const sty = path.endsWith('.sty')
  // What a count or a group test takes: at 1.0 visits() counts headings; at 1.1 visits() and
  // turns() count any id (an option: the times it was chosen) or a part target.
  const counted = /\b(visits|turns|passed|picked)\(\s*(#?)([^\s#(),]*)$/.exec(before)
  if (counted && sty) {
    const [, fn, hash, prefix] = counted as unknown as [string, string, string, string]
    const group = fn === 'passed' || fn === 'picked'
    if (fn === 'turns' && !v11) return []
    if (hash || group) {
      const ids = folder
        .index(path)!
        .ids.filter((d) => writable(d) && (group ? d.kind === 'group' : v11 || d.kind === 'heading'))
      return hash
        ? typed(
            prefix,
            ids.map((d) => ({ label: d.id, kind: 'scene', detail: d.kind })),
          )
        : []
    }
    if (v11) return typed(prefix, targets(folder, path, true))
  }
  const id = /#([\w-]*)$/.exec(before)
  if (id && sty) {
    return typed(
      id[1]!,
      folder
        .index(path)!
        .ids.filter((d) => d.kind !== 'option' && writable(d))
        .map((d) => ({ label: d.id, kind: 'scene' as const, detail: d.kind })),
    )
  }
  // A command's keyword, right after its `{` (not `${`, not an escaped `\{`)
  const command = /(^|[^$\\])\{\s*([a-z]*)$/.exec(before)
  if (command) {
    const lineStart = /^\s*\{\s*[a-z]*$/.test(before)
    return typed(
      command[2]!,
      KEYWORDS.filter(
        (k) =>
          (k.in === 'both' || k.in === (sty ? 'part' : 'module')) &&
          (v11 || !k.v11) &&
          (lineStart || k.inline),
      ).map((k) => ({ label: k.word, kind: 'keyword' as const, detail: k.v11 ? '1.1 command' : 'command' })),
    )
  }
  if (!/(?:^|[^\\])\{[^}]*$/.test(before)) return []
  let items = names(folder, path, pos.line + 1)
  // Adding to or testing a set variable: its declaration's items first, no other set's.
  const setVar =
    /\{\s*set\s+([A-Za-z_]\w*)\s*[-+]?=[^}]*$/.exec(before)?.[1] ??
    /\bcontains\(\s*([A-Za-z_]\w*)\s*,[^),]*$/.exec(before)?.[1]
  const of = setVar !== undefined ? setOfVariable(folder, path, setVar) : undefined
  if (of !== undefined) {
    const mine = `item of ${of}`
    items = items
      .filter((i) => i.detail === undefined || !i.detail.startsWith('item of ') || i.detail === mine)
      .map((i) => (i.detail === mine ? { ...i, sortText: `0${i.label}` } : i))
  }
  return typed(/[A-Za-z_][\w]*$/.exec(before)?.[0] ?? '', items)
}

/** An id one may write: not a group's implicit `<section>@<k>` (an implicit heading id, `h3`, is one). */
const writable = (d: DefinedId) => d.kind !== 'group' || d.explicit

function targets(folder: StoryFolder, from: string, options = false): Item[] {
  const dir = from.includes('/') ? from.slice(0, from.lastIndexOf('/') + 1) : ''
  const out: Item[] = []
  for (const part of folder.partPaths()) {
    const written =
      dir && part.startsWith(dir) && !part.slice(dir.length).includes('/') ? part.slice(dir.length) : part
    out.push({ label: written, kind: 'part' })
    for (const d of folder.index(part)!.ids) {
      if ((options || d.kind !== 'option') && writable(d))
        out.push({ label: `${written}:${d.id}`, kind: 'scene', detail: d.kind })
    }
  }
  return out
}

/** The set declarations a file sees: every module's, and a part's own (by name: its items and where). */
function setDecls(folder: StoryFolder, path: string): Map<string, { items: string[]; at: string }> {
  const out = new Map<string, { items: string[]; at: string }>()
  for (const m of folder.modulePaths())
    for (const d of moduleAst(folder, m).items ?? [])
      out.set(d.name, { items: d.items.map((i) => i.name), at: `${m}:${d.namePos.line}` })
  if (path.endsWith('.sty'))
    for (const d of folder.index(path)?.items ?? [])
      out.set(d.name, { items: d.items, at: `${path}:${d.pos.line}` })
  return out
}

/** 1.1: the set declaration a variable holds, from what its defaults, `{set}`s and `{temp}`s give it. */
function setOfVariable(folder: StoryFolder, path: string, name: string): string | undefined {
  const sets = setDecls(folder, path)
  const scope = localScope(folder, path, undefined)
  for (const t of scope.temps) if (t.name === name && t.setOf && sets.has(t.setOf)) return t.setOf
  for (const m of folder.modulePaths())
    for (const d of moduleAst(folder, m).defaults) {
      const c = d.name === name ? setCandidate(d.e) : undefined
      if (c !== undefined && sets.has(c)) return c
    }
  for (const p of folder.partPaths())
    for (const d of folder.index(p)!.decls)
      if (d.name === name && d.setOf !== undefined && sets.has(d.setOf)) return d.setOf
  return undefined
}

/**
 * What is visible only around a line: in a part, the `{temp}`s of the section holding the line;
 * in a module, the parameters and `{temp}`s of the function or passage holding it. `line` is
 * 1-based; undefined takes every section of a part (and no function of a module).
 */
function localScope(
  folder: StoryFolder,
  path: string,
  line: number | undefined,
): {
  params: Array<{ name: string; ref: boolean; of: string; at: string }>
  temps: Array<{ name: string; type?: string; setOf?: string; at: string }>
} {
  if (path.endsWith('.sty')) {
    const index = folder.index(path)
    if (!index) return { params: [], temps: [] }
    const starts = index.headings.map((h) => h.pos.line)
    const from = line === undefined ? 0 : Math.max(0, ...starts.filter((l) => l <= line))
    const to = line === undefined ? Infinity : Math.min(Infinity, ...starts.filter((l) => l > line))
    const temps = index.decls
      .filter((d) => d.kind === 'temp' && d.pos.line >= from && d.pos.line < to)
      .map((d) => ({ name: d.name, type: d.type, setOf: d.setOf, at: `${path}:${d.pos.line}` }))
    return { params: [], temps }
  }
  if (line === undefined || folder.text(path) === undefined) return { params: [], temps: [] }
  const ast = moduleAst(folder, path)
  // A function or passage runs from its line to the line before the next declaration.
  const starts = [
    ...ast.uses,
    ...ast.defaults,
    ...ast.consts,
    ...ast.fns,
    ...ast.passages,
    ...ast.externs,
    ...(ast.blockFns ?? []),
    ...(ast.items ?? []),
  ].map((d) => d.pos.line)
  const holds = (d: { pos: Pos }) =>
    d.pos.line <= line && line < Math.min(Infinity, ...starts.filter((l) => l > d.pos.line))
  const params: Array<{ name: string; ref: boolean; of: string; at: string }> = []
  const temps: Array<{ name: string; type?: string; setOf?: string; at: string }> = []
  const at = (p: Pos) => `${path}:${p.line}`
  // A one-line `{fn f(a, b) = …}`: from the text, as it is incomplete while it is typed.
  const oneLine = /^\s*\{\s*fn\s+([A-Za-z_]\w*)\s*\(([^)]*)\)\s*=/.exec(lineOf(folder.text(path)!, line - 1))
  if (oneLine)
    for (const name of oneLine[2]!.split(',').map((p) => p.trim()))
      if (name) params.push({ name, ref: false, of: oneLine[1]!, at: `${path}:${line}` })
  for (const f of [...(ast.blockFns ?? []), ...ast.passages].filter(holds)) {
    const refs: readonly boolean[] = 'refs' in f ? (f as BlockFn).refs : []
    for (const [i, name] of f.params.entries())
      params.push({ name, ref: refs[i] === true, of: f.name, at: at(f.namePos) })
    for (const t of tempsIn(f.body))
      temps.push({ name: t.name, type: literalType(t.e), setOf: setCandidate(t.e), at: at(t.namePos) })
  }
  return { params, temps }
}

function names(folder: StoryFolder, path: string, line: number): Item[] {
  const vars = new Set<string>(Object.keys(folder.session ?? {}))
  for (const p of folder.partPaths()) {
    const index = folder.index(p)!
    for (const n of index.declared) vars.add(n)
    for (const n of index.locals) vars.add(n)
  }
  // 1.1: a part's constants are visible in that part only
  if (path.endsWith('.sty')) for (const n of folder.index(path)?.consts ?? []) vars.add(n)
  const out: Item[] = []
  const scope = localScope(folder, path, line)
  for (const p of scope.params)
    out.push({ label: p.name, kind: 'variable', detail: `${p.ref ? 'ref ' : ''}parameter of ${p.of}` })
  for (const t of scope.temps) out.push({ label: t.name, kind: 'variable', detail: 'temp' })
  const fns = new Set<string>()
  for (const m of folder.modulePaths()) {
    const ast = moduleAst(folder, m)
    for (const d of ast.defaults) vars.add(d.name)
    for (const c of ast.consts) vars.add(c.name)
    for (const f of ast.fns) fns.add(f.name)
    // 1.1: block functions
    for (const f of ast.blockFns ?? []) fns.add(f.name)
  }
  const local = new Set(out.map((i) => i.label))
  for (const v of [...vars].sort()) if (!local.has(v)) out.push({ label: v, kind: 'variable' })
  for (const f of [...fns].sort()) out.push({ label: f, kind: 'function', detail: 'module function' })
  // 1.1: set declarations (a module's, the part's own) and their items
  const sets = [...setDecls(folder, path)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  for (const [name] of sets) out.push({ label: name, kind: 'variable', detail: 'set (items)' })
  for (const [name, d] of sets)
    for (const i of d.items) out.push({ label: i, kind: 'variable', detail: `item of ${name}` })
  // turns() is a built-in from 1.1 on
  const v10 = folder.lang === '1.0'
  for (const b of BUILTIN_NAMES)
    if (!(v10 && b === 'turns')) out.push({ label: b, kind: 'function', detail: 'built-in' })
  return out
}

/**
 * The hover text (markdown) of the name under the cursor inside `{…}` or `${…}`: a built-in or a
 * module function followed by `(`, with its documentation or where it is declared; a parameter,
 * a `{temp}` or a variable, with its type (from the first literal it is given) and every place
 * that declares it; at 1.1 a set declaration or an item of one; an id after `#`, with what it
 * names and where.
 */
export function hover(folder: StoryFolder, path: string, pos: LspPos): string | undefined {
  const text = folder.text(path)
  if (text === undefined) return undefined
  const line = lineOf(text, pos.line)
  const { word, start } = wordAt(line, pos.character)
  if (!word) return undefined
  if (line[start - 1] === '#' && path.endsWith('.sty')) {
    const d = folder.index(path)?.ids.find((i) => i.id === word)
    return d && `\`#${d.id}\`: ${d.kind}${d.explicit ? '' : ' (implicit id)'}, ${path}:${d.pos.line}`
  }
  if (!/\{[^}]*$/.test(line.slice(0, start))) return undefined
  const sets = setDecls(folder, path)
  if (/^\s*\(/.test(line.slice(start + word.length)) && !sets.has(word)) {
    const doc = BUILTIN_DOCS.get(word)
    if (doc) return `\`${doc.split(':')[0]}\`\n\n${doc}`
    for (const m of folder.modulePaths()) {
      const ast = moduleAst(folder, m)
      const fn = ast.fns.find((f) => f.name === word)
      if (fn) return `\`${fn.name}(${fn.params.join(', ')})\`: module function, ${m}:${fn.namePos.line}`
      // 1.1: a block function, `ref` parameters marked
      const block = ast.blockFns?.find((f) => f.name === word)
      if (block) {
        const params = block.params.map((p, i) => (block.refs[i] ? `ref ${p}` : p)).join(', ')
        return `\`${block.name}(${params})\`: block function, ${m}:${block.namePos.line}`
      }
    }
    return undefined
  }
  const described = describeVariable(folder, path, pos.line + 1, word)
  if (described) return described
  // 1.1: a set declaration, or one of its items (a bare name is an item when nothing else has it)
  const set = sets.get(word)
  if (set)
    return `\`${word}\`: set of ${set.items.map((i) => `\`${i}\``).join(', ')}\n\n- declared in ${set.at}`
  const of = [...sets].filter(([, d]) => d.items.includes(word))
  if (of.length > 0)
    return `\`${word}\`: item of ${of.map(([n]) => `\`${n}\``).join(', ')}\n\n${of.map(([n, d]) => `- \`${n}.${word}\` in ${d.at}`).join('\n')}`
  return undefined
}

function moduleAst(folder: StoryFolder, path: string) {
  return parseModule(folder.text(path)!, { path, lang: folder.lang }).ast
}

const KIND_WORDS = {
  default: 'default',
  set: 'assigned',
  local: 'local',
  temp: 'temp',
  const: 'constant',
} as const

/** A variable's type and declarations, or undefined when nothing declares the name. */
function describeVariable(folder: StoryFolder, path: string, line: number, name: string): string | undefined {
  // A parameter or a `{temp}` around the line comes first, as the story reads a bare name.
  const scope = localScope(folder, path, line)
  const param = scope.params.find((p) => p.name === name)
  if (param)
    return `\`${name}\`: ${param.ref ? 'ref parameter' : 'parameter'} of \`${param.of}\`, ${param.at}`
  const places: string[] = []
  let type: string | undefined
  let what = 'story variable'
  // 1.1: a value written as `Tools(…)` or `Tools.rope` of a declared set is a set
  const sets = new Set<string>()
  for (const m of folder.modulePaths()) for (const d of moduleAst(folder, m).items ?? []) sets.add(d.name)
  for (const p of folder.partPaths()) for (const n of folder.index(p)!.sets) sets.add(n)
  const setType = (c: string | undefined) => (c !== undefined && sets.has(c) ? `set of ${c}` : undefined)

  const temps = scope.temps.filter((t) => t.name === name)
  for (const t of temps) {
    type ??= t.type ?? setType(t.setOf)
    places.push(`temp in ${t.at}`)
  }
  if (temps.length > 0) what = 'temporary'
  const session = folder.session?.[name]
  if (temps.length === 0 && session !== undefined && session !== null) {
    type = Array.isArray(session) ? 'list' : typeof session === 'object' ? 'map' : typeof session
    places.push('`session.json` key')
  }
  for (const m of temps.length > 0 ? [] : folder.modulePaths()) {
    const ast = moduleAst(folder, m)
    const c = ast.consts.find((x) => x.name === name)
    if (c) {
      what = 'module constant'
      type ??= literalType(c.e)
      places.push(`constant in ${m}:${c.namePos.line}`)
    }
    for (const d of ast.defaults.filter((x) => x.name === name)) {
      type ??= literalType(d.e) ?? setType(setCandidate(d.e))
      places.push(`module default in ${m}:${d.namePos.line}`)
    }
  }
  for (const p of temps.length > 0 ? [] : folder.partPaths()) {
    for (const d of folder.index(p)!.decls) {
      if (d.name !== name || d.kind === 'temp') continue
      // a part's constant is visible in that part only
      if (d.kind === 'const' && p !== path) continue
      if (d.kind === 'local' && places.length === 0) what = 'local variable'
      if (d.kind === 'const' && places.length === 0) what = 'part constant'
      type ??= d.type ?? setType(d.setOf)
      places.push(`${KIND_WORDS[d.kind]} in ${p}:${d.pos.line}`)
    }
  }
  if (places.length === 0) return undefined
  const shown = places.slice(0, 8).map((p) => `- ${p}`)
  if (places.length > 8) shown.push(`- and ${places.length - 8} more`)
  return `\`${name}\`: ${what}${type ? ` (${type})` : ''}\n\n${shown.join('\n')}`
}

/** A heading as a document symbol, its subsections nested. */
export interface HeadingSymbol {
  name: string
  id: string
  line: number
  children: HeadingSymbol[]
}

/** The headings of a part, nested by level. */
export function documentSymbols(folder: StoryFolder, path: string): HeadingSymbol[] {
  const text = folder.text(path)
  if (text === undefined || !path.endsWith('.sty')) return []
  const lines = text.split(/\r\n|\r|\n/)
  const roots: HeadingSymbol[] = []
  const stack: Array<{ level: number; symbol: HeadingSymbol }> = []
  for (const h of folder.index(path)!.headings) {
    const raw = (lines[h.pos.line - 1] ?? '').trim().replace(/^#+\s*/, '')
    const name = raw.replace(/\s+#\S.*$/, '').replace(/\s*\[#[\w-]+\]\s*$/, '') || `#${h.id}`
    const symbol: HeadingSymbol = { name, id: h.id, line: h.pos.line - 1, children: [] }
    while (stack.length > 0 && stack[stack.length - 1]!.level >= h.level) stack.pop()
    ;(stack.length > 0 ? stack[stack.length - 1]!.symbol.children : roots).push(symbol)
    stack.push({ level: h.level, symbol })
  }
  return roots
}
