/**
 * The editor features over a story folder: go to definition, completion, hover and document
 * symbols. Positions in and out are LSP positions (0-based lines, UTF-16 characters); the story
 * language counts columns in code points, converted here.
 */
import { parseModule, resolveModulePath, resolveTarget } from '@spkg/story'
import type { StoryFolder } from '../node/story-folder.ts'
import { BUILTIN_DOCS, BUILTIN_NAMES } from './builtins.ts'
import { literalType, setCandidate } from './part-index.ts'

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
  kind: 'part' | 'scene' | 'variable' | 'function' | 'module'
  detail?: string
  /** The text the item replaces: the prefix typed so far, on the cursor's line (LSP positions). */
  range: { start: LspPos; end: LspPos }
}

/**
 * Completions at a position: targets in a gate or link (and at 1.1 after `->` or `->->`), modules
 * after `{use`, ids after `#`, and names inside `{…}` and `${…}`. Only the items that start with
 * what is typed so far are returned, each with the range of that prefix (so accepting one replaces
 * it): after `[[ 0004-endings.sty:`, the ids of that part.
 */
export function complete(folder: StoryFolder, path: string, pos: LspPos): CompletionEntry[] {
  const text = folder.text(path)
  if (text === undefined) return []
  const before = lineOf(text, pos.line).slice(0, pos.character)
  const typed = (prefix: string, items: Array<Omit<CompletionEntry, 'range'>>): CompletionEntry[] => {
    const range = { start: { line: pos.line, character: pos.character - prefix.length }, end: pos }
    return items.filter((i) => i.label.startsWith(prefix)).map((i) => ({ ...i, range }))
  }
  // 1.1: a tunnel into another part, `->->` going on there (a `#` starts an id instead)
  const tunnel = /^\s*->(?:->)?\s+([^\s#][^\s]*)$/.exec(before)
  if (tunnel && folder.lang !== '1.0') return typed(tunnel[1]!, targets(folder, path))
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
  const id = /#([\w-]*)$/.exec(before)
  if (id && path.endsWith('.sty')) {
    return typed(
      id[1]!,
      folder
        .index(path)!
        .ids.filter((d) => d.kind !== 'option')
        .map((d) => ({ label: d.id, kind: 'scene' as const, detail: d.kind })),
    )
  }
  if (!/\{[^}]*$/.test(before)) return []
  return typed(/[A-Za-z_][\w]*$/.exec(before)?.[0] ?? '', names(folder))
}

function targets(folder: StoryFolder, from: string): Array<Omit<CompletionEntry, 'range'>> {
  const dir = from.includes('/') ? from.slice(0, from.lastIndexOf('/') + 1) : ''
  const out: Array<Omit<CompletionEntry, 'range'>> = []
  for (const part of folder.partPaths()) {
    const written =
      dir && part.startsWith(dir) && !part.slice(dir.length).includes('/') ? part.slice(dir.length) : part
    out.push({ label: written, kind: 'part' })
    for (const d of folder.index(part)!.ids) {
      if (d.kind !== 'option') out.push({ label: `${written}:${d.id}`, kind: 'scene', detail: d.kind })
    }
  }
  return out
}

function names(folder: StoryFolder): Array<Omit<CompletionEntry, 'range'>> {
  const vars = new Set<string>(Object.keys(folder.session ?? {}))
  for (const p of folder.partPaths()) {
    const index = folder.index(p)!
    for (const n of index.declared) vars.add(n)
    for (const n of index.locals) vars.add(n)
    for (const n of index.consts) vars.add(n)
  }
  const out: Array<Omit<CompletionEntry, 'range'>> = []
  const fns = new Set<string>()
  const sets = new Set<string>()
  const items = new Set<string>()
  for (const m of folder.modulePaths()) {
    const ast = moduleAst(folder, m)
    for (const d of ast.defaults) vars.add(d.name)
    for (const c of ast.consts) vars.add(c.name)
    for (const f of ast.fns) fns.add(f.name)
    // 1.1: block functions, set declarations and their items
    for (const f of ast.blockFns ?? []) fns.add(f.name)
    for (const d of ast.items ?? []) {
      sets.add(d.name)
      for (const x of d.items) items.add(x.name)
    }
  }
  for (const v of [...vars].sort()) out.push({ label: v, kind: 'variable' })
  for (const f of [...fns].sort()) out.push({ label: f, kind: 'function', detail: 'module function' })
  for (const d of [...sets].sort()) out.push({ label: d, kind: 'variable', detail: 'set (items)' })
  for (const i of [...items].sort()) out.push({ label: i, kind: 'variable', detail: 'set item' })
  // turns() is a built-in from 1.1 on
  const v10 = folder.lang === '1.0'
  for (const b of BUILTIN_NAMES)
    if (!(v10 && b === 'turns')) out.push({ label: b, kind: 'function', detail: 'built-in' })
  return out
}

/**
 * The hover text (markdown) of the name under the cursor inside `{…}` or `${…}`: a built-in or a
 * module function followed by `(`, with its documentation or where it is declared; a variable,
 * with its type (from the first literal it is given) and every place that declares it; an id
 * after `#`, with what it names and where.
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
  if (/^\s*\(/.test(line.slice(start + word.length))) {
    const doc = BUILTIN_DOCS.get(word)
    if (doc) return `\`${doc.split(':')[0]}\`\n\n${doc}`
    for (const m of folder.modulePaths()) {
      const fn = moduleAst(folder, m).fns.find((f) => f.name === word)
      if (fn) return `\`${fn.name}(${fn.params.join(', ')})\`: module function, ${m}:${fn.namePos.line}`
    }
    return undefined
  }
  return describeVariable(folder, word)
}

function moduleAst(folder: StoryFolder, path: string) {
  return parseModule(folder.text(path)!, { path, lang: folder.lang }).ast
}

const KIND_WORDS = { default: 'default', set: 'assigned', local: 'local' } as const

/** A variable's type and declarations, or undefined when nothing declares the name. */
function describeVariable(folder: StoryFolder, name: string): string | undefined {
  const places: string[] = []
  let type: string | undefined
  let what = 'story variable'
  // 1.1: a value written as `Tools(…)` or `Tools.rope` of a declared set is a set
  const sets = new Set<string>()
  for (const m of folder.modulePaths()) for (const d of moduleAst(folder, m).items ?? []) sets.add(d.name)
  for (const p of folder.partPaths()) for (const n of folder.index(p)!.sets) sets.add(n)
  const setType = (c: string | undefined) => (c !== undefined && sets.has(c) ? `set of ${c}` : undefined)

  const session = folder.session?.[name]
  if (session !== undefined && session !== null) {
    type = Array.isArray(session) ? 'list' : typeof session === 'object' ? 'map' : typeof session
    places.push('`session.json` key')
  }
  for (const m of folder.modulePaths()) {
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
  for (const p of folder.partPaths()) {
    for (const d of folder.index(p)!.decls) {
      if (d.name !== name) continue
      if (d.kind === 'local' && places.length === 0) what = 'local variable'
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
