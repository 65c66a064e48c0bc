/**
 * The editor features over a story folder: go to definition, completion, hover and document
 * symbols. Positions in and out are LSP positions (0-based lines, UTF-16 characters); the story
 * language counts columns in code points, converted here.
 */
import { parseModule, readingLang, resolveModulePath, resolveTarget } from '@spkg/story'
import type { StoryFolder } from '../node/story-folder.ts'
import { BUILTIN_DOCS, BUILTIN_NAMES } from './builtins.ts'

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
    const ast = parseModule(folder.text(m)!, { path: m, lang: readingLang(folder.storyLang) }).ast
    const decl = [
      ...ast.fns,
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
}

/**
 * Completions at a position: targets in a gate or link, modules after `{use`, ids after `#`, and
 * names inside `{…}` and `${…}`.
 */
export function complete(folder: StoryFolder, path: string, pos: LspPos): CompletionEntry[] {
  const text = folder.text(path)
  if (text === undefined) return []
  const before = lineOf(text, pos.line).slice(0, pos.character)
  if (/(\[\[\s*|\[[^\]]*\s>\s)[^\]\s]*$/.test(before)) return targets(folder, path)
  if (/\{use\s+[^}\s]*$/.test(before)) {
    return folder.modulePaths().map((m) => {
      const short = /^extensions\/([^/]+)\.xty$/.exec(m)?.[1] ?? (folder.flat ? m.replace(/\.xty$/, '') : m)
      return { label: short, kind: 'module' as const, detail: m }
    })
  }
  if (/#[\w-]*$/.test(before) && path.endsWith('.sty')) {
    return folder
      .index(path)!
      .ids.filter((d) => d.kind !== 'option')
      .map((d) => ({ label: d.id, kind: 'scene' as const, detail: d.kind }))
  }
  if (!/\{[^}]*$/.test(before)) return []
  return names(folder)
}

function targets(folder: StoryFolder, from: string): CompletionEntry[] {
  const dir = from.includes('/') ? from.slice(0, from.lastIndexOf('/') + 1) : ''
  const out: CompletionEntry[] = []
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

function names(folder: StoryFolder): CompletionEntry[] {
  const vars = new Set<string>(Object.keys(folder.session ?? {}))
  for (const p of folder.partPaths()) {
    const index = folder.index(p)!
    for (const n of index.declared) vars.add(n)
    for (const n of index.locals) vars.add(n)
  }
  const out: CompletionEntry[] = []
  const fns = new Set<string>()
  for (const m of folder.modulePaths()) {
    const ast = parseModule(folder.text(m)!, { path: m, lang: readingLang(folder.storyLang) }).ast
    for (const d of ast.defaults) vars.add(d.name)
    for (const c of ast.consts) vars.add(c.name)
    for (const f of ast.fns) fns.add(f.name)
  }
  for (const v of [...vars].sort()) out.push({ label: v, kind: 'variable' })
  for (const f of [...fns].sort()) out.push({ label: f, kind: 'function', detail: 'module function' })
  for (const b of BUILTIN_NAMES) out.push({ label: b, kind: 'function', detail: 'built-in' })
  return out
}

/** The hover text of a built-in under the cursor, when followed by `(`. */
export function hover(folder: StoryFolder, path: string, pos: LspPos): string | undefined {
  const text = folder.text(path)
  if (text === undefined) return undefined
  const line = lineOf(text, pos.line)
  const { word, start } = wordAt(line, pos.character)
  const doc = BUILTIN_DOCS.get(word)
  if (!doc || !/^\s*\(/.test(line.slice(start + word.length))) return undefined
  return doc
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
