/**
 * A story folder as the server sees it: the files on disk under the folder that holds
 * `manifest.json` (or, without one, the folder of the file), with the editor's open documents
 * laid over them. Parts are indexed lazily and the index is kept until the part's text changes.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { checkManifestBounds, type Diagnostic, parseManifestText } from '@spkg/manifest'
import {
  type CheckStoryInput,
  parseStory,
  readingLang,
  resolveTarget,
  type StoryLang,
  tabBarVariables,
} from '@spkg/story'
import type { LangHint } from '../analysis/lang-hint.ts'
import { indexPart, type PartIndex } from '../analysis/part-index.ts'
import { summarizePart, summaryHead } from '../analysis/summarize-part.ts'

/** At most this many files are read from a folder, so a mis-opened home directory stays cheap. */
const MAX_FILES = 20_000
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'META-PKG'])

interface Entry {
  text: string
  index?: PartIndex
  summary?: string
  /** Its gates' and links' targets by the part they resolve to. */
  into?: Map<string, string[]>
}

/** Finds the story root of a file: the nearest folder above it holding `manifest.json`. */
export function findStoryRoot(file: string): { root: string; hasManifest: boolean } {
  let dir = dirname(file)
  for (;;) {
    try {
      if (statSync(join(dir, 'manifest.json')).isFile()) return { root: dir, hasManifest: true }
    } catch {
      // not here
    }
    const up = dirname(dir)
    if (up === dir) return { root: dirname(file), hasManifest: false }
    dir = up
  }
}

/** The codes of the manifest bounds (`checkManifestBounds` and the size and nesting guards). */
const BOUND_CODES = new Set<string>([
  'manifest/too-large',
  'manifest/too-deep',
  'manifest/too-long',
  'manifest/too-many',
  'manifest/invalid-version',
])

/** One story folder: its manifest facts and every part and module, disk or editor. */
export class StoryFolder {
  readonly files = new Map<string, Entry>()
  assets: string[] = []
  order: string[] = []
  requires: string[] = []
  /** The variables the manifest's tab bar shows (read by the host). */
  hostVariables: string[] = []
  extensions: string[] = []
  session: Record<string, unknown> | undefined
  /** The manifest's `story_lang`, when it declares one. */
  storyLang: string | undefined
  /**
   * What the bounds of docs/manifest-limits.md find in `manifest.json` (size, nesting, every
   * field's length and count, the `version` pattern): what an upload and `spkg validate` refuse,
   * shown while the author edits. The manifest's other findings are `spkg validate`'s.
   */
  manifestBounds: Diagnostic[] = []
  flat = false

  /**
   * @param defaultLang the version to read the folder at when its manifest declares no
   *   `story_lang` or it has none (the server's `storyLang`, as `spkg validate --lang`); absent,
   *   1.0, as `spkg validate` reads it
   */
  constructor(
    readonly root: string,
    readonly hasManifest: boolean,
    private defaultLang?: StoryLang,
  ) {
    this.reload()
  }

  /** The version the folder is read at: the manifest's `story_lang`, else the default. */
  get lang(): StoryLang {
    return readingLang(this.storyLang ?? this.defaultLang)
  }

  /**
   * Sets the version a folder without a declared `story_lang` is read at; the parts are indexed
   * again when it changes what they are read at. True when it did.
   */
  setDefaultLang(lang: StoryLang | undefined): boolean {
    const before = this.lang
    this.defaultLang = lang
    if (this.lang === before) return false
    for (const [path, e] of this.files) this.files.set(path, { text: e.text })
    return true
  }

  /** How to turn 1.1 on, for the findings of a check at 1.0 (undefined when read at 1.1). */
  langHint(): LangHint | undefined {
    if (this.lang !== '1.0') return undefined
    const how = this.hasManifest
      ? this.storyLang === undefined
        ? 'manifest.json declares no "story_lang", which reads as 1.0: add "story_lang": "1.1"'
        : `manifest.json declares "story_lang": "${this.storyLang}": set it to "1.1"`
      : this.defaultLang === undefined
        ? 'without a manifest.json the folder is read at 1.0, as spkg validate reads it: set the language server\'s storyLang to "1.1" (spkg validate --lang 1.1), or add a manifest.json with "story_lang": "1.1"'
        : 'the language server\'s storyLang reads this folder at 1.0: set it to "1.1", or add a manifest.json with "story_lang": "1.1"'
    return { how, manifest: this.hasManifest }
  }

  /** The archive path of an absolute file path, or undefined when it is outside the folder. */
  archivePath(file: string): string | undefined {
    const rel = relative(this.root, file)
    if (rel.startsWith('..') || rel === '') return undefined
    return rel.split(sep).join('/')
  }

  absolutePath(archivePath: string): string {
    return join(this.root, ...archivePath.split('/'))
  }

  /** Reads the folder from disk again (documents open in the editor are set again by the caller). */
  reload(): void {
    this.files.clear()
    this.assets = []
    const walk = (dir: string) => {
      let names: string[]
      try {
        names = readdirSync(dir)
      } catch {
        return
      }
      for (const name of names.sort()) {
        if (this.assets.length >= MAX_FILES) return
        const abs = join(dir, name)
        let st: ReturnType<typeof statSync>
        try {
          st = statSync(abs)
        } catch {
          continue
        }
        if (st.isDirectory()) {
          if (!SKIP_DIRS.has(name) && !name.startsWith('.')) walk(abs)
        } else if (st.isFile()) {
          const path = this.archivePath(abs)!
          this.assets.push(path)
          if (path.endsWith('.sty') || path.endsWith('.xty')) {
            try {
              this.files.set(path, { text: readFileSync(abs, 'utf8') })
            } catch {
              // unreadable: treated as absent
            }
          }
        }
      }
    }
    walk(this.root)
    this.readManifest()
  }

  private readManifest(): void {
    this.order = []
    this.session = undefined
    this.manifestBounds = []
    // Without a manifest, a folder holding a single part at its root reads as a flat archive;
    // several parts read as a packaged one in name order (a flat archive has exactly one part).
    const parts = this.partPaths()
    this.flat = !this.hasManifest && parts.length <= 1 && parts.every((p) => !p.includes('/'))
    if (this.hasManifest) {
      try {
        const text = readFileSync(join(this.root, 'manifest.json'), 'utf8')
        const parsed = parseManifestText(text, { bounds: checkManifestBounds })
        this.manifestBounds = parsed.diagnostics.filter((d) => BOUND_CODES.has(d.code))
        // A manifest refused by a bound of the whole is not read any further.
        const refused = this.manifestBounds.some((d) => d.severity === 'fatal')
        const m = (parsed.manifest ?? (refused ? {} : JSON.parse(text))) as Record<string, unknown>
        const parts = Array.isArray(m.parts) ? m.parts : []
        this.order = parts
          .map((p) => (typeof p === 'string' ? p : (p as { file?: unknown })?.file))
          .filter((p): p is string => typeof p === 'string')
        this.requires = Array.isArray(m.requires) ? m.requires.filter((r) => typeof r === 'string') : []
        this.extensions = Array.isArray(m.extensions) ? m.extensions.filter((r) => typeof r === 'string') : []
        this.storyLang = typeof m.story_lang === 'string' ? m.story_lang : undefined
        this.hostVariables = tabBarVariables(m)
      } catch {
        // an unreadable manifest: the parts on disk in name order
      }
    }
    try {
      const s = JSON.parse(readFileSync(join(this.root, 'session.json'), 'utf8')) as unknown
      if (s && typeof s === 'object' && !Array.isArray(s)) this.session = s as Record<string, unknown>
    } catch {
      // no session
    }
    if (this.order.length === 0) this.order = this.partPaths()
  }

  partPaths(): string[] {
    return [...this.files.keys()].filter((p) => p.endsWith('.sty'))
  }

  modulePaths(): string[] {
    return [...this.files.keys()].filter((p) => p.endsWith('.xty'))
  }

  /** Sets the text of a file (an editor change); its index is rebuilt when next needed. */
  setText(path: string, text: string): void {
    const old = this.files.get(path)
    if (old?.text === text) return
    this.files.set(path, { text })
    if (!this.assets.includes(path)) this.assets.push(path)
  }

  /** Drops an editor's text for `path`: the file as on disk, or nothing when it is not there. */
  restoreFromDisk(path: string): void {
    try {
      this.files.set(path, { text: readFileSync(this.absolutePath(path), 'utf8') })
    } catch {
      this.files.delete(path)
      this.assets = this.assets.filter((a) => a !== path)
    }
  }

  text(path: string): string | undefined {
    return this.files.get(path)?.text
  }

  /** The {@link PartIndex} of a part, parsed once per text. */
  index(path: string): PartIndex | undefined {
    const e = this.files.get(path)
    if (!e || !path.endsWith('.sty')) return undefined
    e.index ??= indexPart(parseStory(e.text, { path, lang: this.lang }).ast)
    return e.index
  }

  /** The stand-in of a part for checking the part `edited` ({@link summarizePart}). */
  summary(path: string, edited: string): string {
    const e = this.files.get(path)!
    const index = this.index(path)!
    e.summary ??= summaryHead(index)
    if (!e.into) {
      e.into = new Map()
      for (const t of index.targets) {
        const part = resolveTarget(path, t.target).part
        e.into.set(part, [...(e.into.get(part) ?? []), t.target])
      }
    }
    const into = e.into.get(edited) ?? []
    return into.length === 0 && !index.endsWithJump ? e.summary : summarizePart(index, into)
  }

  /** Parts by path: the full text of `edited`, the stand-ins of the others (all full when undefined). */
  partsFor(edited?: string): Record<string, string> {
    const parts: Record<string, string> = {}
    // 1.1 sets make facts of other parts matter that a stand-in does not carry (a variable that is
    // always a set, a set declared twice): a story with sets is checked whole.
    const whole = edited === undefined || this.hasSets()
    for (const p of this.partPaths())
      parts[p] = whole || p === edited ? this.text(p)! : this.summary(p, edited)
    return parts
  }

  /** 1.1: some part or module declares a set (`{items …}`). */
  private hasSets(): boolean {
    if (this.lang === '1.0') return false
    const declares = (path: string) => /^[ \t]*\{\s*items\b/m.test(this.text(path) ?? '')
    return this.partPaths().some(declares) || this.modulePaths().some(declares)
  }

  modules(): Record<string, string> {
    const out: Record<string, string> = {}
    for (const p of this.modulePaths()) out[p] = this.text(p)!
    return out
  }

  /** What `checkStory` reads: the whole folder, or `edited` against stand-ins of the other parts ({@link partsFor}). */
  checkInput(edited?: string): CheckStoryInput {
    return {
      parts: this.partsFor(edited),
      order: this.order,
      modules: this.modules(),
      assets: this.assets,
      requires: this.requires,
      session: this.session,
      storyLang: this.storyLang ?? this.defaultLang,
      extensions: this.extensions,
      flat: this.flat,
      hostVariables: this.hostVariables,
    }
  }
}
