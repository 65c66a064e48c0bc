/**
 * The language server: keeps the story folders of the open documents, checks the edited part as
 * the author types and the whole folder when typing pauses, and answers definition, completion,
 * hover and document-symbol requests.
 */
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Diagnostic } from '@spkg/manifest'
import { STORY_LANG_VERSIONS, type StoryLang } from '@spkg/story'
import {
  CompletionItemKind,
  type Connection,
  DiagnosticSeverity,
  type DocumentSymbol,
  type Diagnostic as LspDiagnostic,
  SymbolKind,
  TextDocumentSyncKind,
  TextDocuments,
} from 'vscode-languageserver/node'
import { TextDocument } from 'vscode-languageserver-textdocument'
import {
  complete,
  documentSymbols,
  findDefinition,
  type HeadingSymbol,
  hover,
  utf16Column,
} from '../analysis/features.ts'
import { checkWithLangHint } from '../analysis/lang-hint.ts'
import { WHOLE_FOLDER_CODES } from '../analysis/summarize-part.ts'
import { BackgroundChecker } from './background-check.ts'
import { findStoryRoot, StoryFolder } from './story-folder.ts'

/** Options of {@link serveConnection}; an editor may also send them as `initializationOptions`. */
export interface LanguageServerOptions {
  /** Quiet time after a keystroke before the edited part is checked. @default 150 */
  debounceMs?: number
  /** Quiet time after which the whole folder is checked again (every file's diagnostics). @default 600 */
  fullCheckDelayMs?: number
  /**
   * The story-language version of a folder whose `manifest.json` declares no `story_lang`, or that
   * has no manifest, as `spkg validate --lang` (a manifest's `story_lang` wins). The workspace
   * configuration `spkg.storyLang` overrides it while set. @default '1.0', as `spkg validate`
   */
  storyLang?: StoryLang
}

/** `value` when it is a version the server reads, else undefined (`null`, `""`: not set). */
function langOption(value: unknown, report: (m: string) => void): StoryLang | undefined {
  if (value === undefined || value === null || value === '') return undefined
  if ((STORY_LANG_VERSIONS as readonly unknown[]).includes(value)) return value as StoryLang
  report(
    `spkg: storyLang must be ${STORY_LANG_VERSIONS.join(' or ')} (got ${JSON.stringify(value)}); ignored`,
  )
  return undefined
}

const SEVERITY: Record<string, DiagnosticSeverity> = {
  fatal: DiagnosticSeverity.Error,
  error: DiagnosticSeverity.Error,
  usage: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
}

/** Serves the language on a connection until the editor shuts it down. */
export function serveConnection(connection: Connection, options: LanguageServerOptions = {}): void {
  const documents = new TextDocuments(TextDocument)
  const folders = new Map<string, StoryFolder>()
  const published = new Map<StoryFolder, Set<string>>()
  const timers = new Map<string, ReturnType<typeof setTimeout>>()
  let debounceMs = options.debounceMs ?? 150
  let fullCheckDelayMs = options.fullCheckDelayMs ?? 600
  const report = (m: string) => connection.console.error(m)
  // The version a folder without a declared story_lang is read at: the configuration's while it
  // sets one, else the initialization option's (or the caller's), else 1.0 (undefined).
  let initLang = langOption(options.storyLang, report)
  let configLang: StoryLang | undefined
  const defaultLang = () => configLang ?? initLang

  const roots = new Map<string, ReturnType<typeof findStoryRoot>>()
  const locate = (uri: string): { folder: StoryFolder; path: string } | undefined => {
    if (!uri.startsWith('file:')) return undefined
    const file = fileURLToPath(uri)
    let found = roots.get(file)
    if (!found) {
      found = findStoryRoot(file)
      roots.set(file, found)
    }
    const { root, hasManifest } = found
    let folder = folders.get(root)
    if (!folder) {
      folder = new StoryFolder(root, hasManifest, defaultLang())
      folders.set(root, folder)
    }
    const path = folder.archivePath(file)
    return path === undefined ? undefined : { folder, path }
  }

  const toLsp = (lines: string[], d: Diagnostic): LspDiagnostic => {
    const lineText = lines[(d.line ?? 1) - 1] ?? ''
    const start = d.column ? utf16Column(lineText, d.column) : 0
    const token = /^\S*/.exec(lineText.slice(start))![0]
    const line = Math.max(0, (d.line ?? 1) - 1)
    return {
      range: {
        start: { line, character: start },
        end: { line, character: start + Math.max(1, token.length) },
      },
      severity: SEVERITY[d.severity] ?? DiagnosticSeverity.Error,
      code: d.code,
      source: 'spkg',
      message: d.message,
    }
  }

  const publish = (folder: StoryFolder, path: string, found: Diagnostic[]) => {
    const uri = pathToFileURL(folder.absolutePath(path)).href
    const version = documents.get(uri)?.version
    const lines = found.length > 0 ? (folder.text(path)?.split(/\r\n|\r|\n/) ?? []) : []
    void connection.sendDiagnostics({ uri, version, diagnostics: found.map((d) => toLsp(lines, d)) })
  }

  /** Checks one part against stand-ins of the others: the fast path after a keystroke. */
  const checkPart = (folder: StoryFolder, path: string) => {
    if (!path.endsWith('.sty')) return checkFolder(folder)
    const found = checkWithLangHint(folder.checkInput(path), folder.langHint()).filter(
      (d) => d.path === path && !WHOLE_FOLDER_CODES.has(d.code),
    )
    publish(folder, path, found)
    // Remembered even before the folder's first full check, which clears it once fixed elsewhere.
    let paths = published.get(folder)
    if (!paths) {
      paths = new Set()
      published.set(folder, paths)
    }
    paths.add(path)
  }

  /** Publishes every file's diagnostics of a whole-folder check (clearing fixed ones). */
  const publishFolder = (folder: StoryFolder, all: Diagnostic[]) => {
    const byPath = new Map<string, Diagnostic[]>()
    for (const d of [...folder.manifestBounds, ...all]) {
      const p = d.path ?? 'manifest.json'
      byPath.set(p, [...(byPath.get(p) ?? []), d])
    }
    const before = published.get(folder) ?? new Set()
    for (const p of before) if (!byPath.has(p)) publish(folder, p, [])
    for (const [p, found] of byPath) publish(folder, p, found)
    published.set(folder, new Set(byPath.keys()))
  }

  // Whole-folder checks run in a worker thread (background-check.ts): the server answers
  // keystrokes and requests while a large folder is checked. Each change to a folder bumps its
  // generation; a check's result is published only if no change came since it started, and a
  // folder changed while its check runs is checked again when that check ends (one at a time).
  const checker = new BackgroundChecker((m) => connection.console.error(m))
  const generation = new Map<StoryFolder, number>()
  const running = new Map<StoryFolder, { again: boolean }>()
  const touch = (folder: StoryFolder) => generation.set(folder, (generation.get(folder) ?? 0) + 1)

  /** Checks the whole folder (in the worker) and publishes every file's diagnostics. */
  const checkFolder = (folder: StoryFolder) => {
    const run = running.get(folder)
    if (run) {
      run.again = true
      return
    }
    const state = { again: false }
    running.set(folder, state)
    const started = generation.get(folder) ?? 0
    checker
      .check(folder.checkInput(), folder.langHint())
      .then(
        (found) => {
          if ((generation.get(folder) ?? 0) === started) publishFolder(folder, found)
        },
        (e: Error) => connection.console.error(`spkg: check failed: ${e.message}`),
      )
      .finally(() => {
        running.delete(folder)
        if (state.again) checkFolder(folder)
      })
  }

  const schedule = (key: string, ms: number, run: () => void) => {
    clearTimeout(timers.get(key))
    const t = setTimeout(() => {
      timers.delete(key)
      try {
        run()
      } catch (e) {
        connection.console.error(`spkg: check failed: ${(e as Error).message}`)
      }
    }, ms)
    t.unref?.()
    timers.set(key, t)
  }

  // TextDocuments reports an open as a content change too: handle each version once, so an
  // open is checked at once rather than after the debounce.
  const handled = new Map<string, number>()
  const changed = (uri: string, version: number, text: string, immediate: boolean) => {
    if (handled.get(uri) === version) return
    handled.set(uri, version)
    const at = locate(uri)
    if (!at) return
    at.folder.setText(at.path, text)
    touch(at.folder)
    schedule(`part:${uri}`, immediate ? 0 : debounceMs, () => checkPart(at.folder, at.path))
    schedule(`folder:${at.folder.root}`, fullCheckDelayMs, () => checkFolder(at.folder))
  }

  /** Reads every folder at the version now chosen, and checks again those it changes. */
  const langChanged = () => {
    for (const folder of folders.values()) {
      if (!folder.setDefaultLang(defaultLang())) continue
      touch(folder)
      for (const doc of documents.all()) {
        const at = locate(doc.uri)
        if (at?.folder === folder) schedule(`part:${doc.uri}`, 0, () => checkPart(folder, at.path))
      }
      schedule(`folder:${folder.root}`, 0, () => checkFolder(folder))
    }
  }
  let pullConfiguration = false
  /** The `spkg` section of the workspace configuration: its `storyLang`. */
  const configured = (section: unknown) => {
    const value =
      section && typeof section === 'object' ? (section as { storyLang?: unknown }).storyLang : undefined
    configLang = langOption(value, report)
    langChanged()
  }
  const pull = () => {
    connection.workspace
      .getConfiguration('spkg')
      .then(configured, (e: Error) => report(`spkg: reading the configuration failed: ${e.message}`))
  }

  connection.onInitialize((params) => {
    const init = (params.initializationOptions ?? {}) as LanguageServerOptions
    if (typeof init.debounceMs === 'number') debounceMs = init.debounceMs
    if (typeof init.fullCheckDelayMs === 'number') fullCheckDelayMs = init.fullCheckDelayMs
    if (init.storyLang !== undefined) initLang = langOption(init.storyLang, report)
    pullConfiguration = params.capabilities.workspace?.configuration === true
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        definitionProvider: true,
        hoverProvider: true,
        documentSymbolProvider: true,
        completionProvider: { triggerCharacters: ['[', '>', '#', ':', '{', ' '] },
      },
      serverInfo: { name: 'spkg-language-server' },
    }
  })
  connection.onInitialized(() => {
    if (pullConfiguration) pull()
  })
  // Pushed settings (`{ spkg: { storyLang } }`), or a nudge to read them again.
  connection.onDidChangeConfiguration((p) => {
    const settings = p.settings as { spkg?: unknown } | null | undefined
    if (settings && typeof settings === 'object' && 'spkg' in settings) configured(settings.spkg)
    else if (pullConfiguration) pull()
  })
  documents.onDidOpen((e) => changed(e.document.uri, e.document.version, e.document.getText(), true))
  documents.onDidChangeContent((e) =>
    changed(e.document.uri, e.document.version, e.document.getText(), false),
  )
  documents.onDidClose((e) => {
    // Closed without saving: the folder goes back to what is on disk.
    handled.delete(e.document.uri)
    const at = locate(e.document.uri)
    if (at) {
      at.folder.restoreFromDisk(at.path)
      touch(at.folder)
    }
  })
  connection.onDidChangeWatchedFiles(() => {
    roots.clear()
    for (const folder of folders.values()) {
      folder.reload()
      touch(folder)
      for (const doc of documents.all()) {
        const at = locate(doc.uri)
        if (at?.folder === folder) folder.setText(at.path, doc.getText())
      }
      schedule(`folder:${folder.root}`, 0, () => checkFolder(folder))
    }
  })

  /** A request handler that answers `fallback` instead of failing when a feature throws. */
  const safe =
    <P, R, F>(fallback: F, fn: (p: P) => R) =>
    (p: P): R | F => {
      try {
        return fn(p)
      } catch (e) {
        connection.console.error(`spkg: request failed: ${(e as Error).message}`)
        return fallback
      }
    }
  connection.onDefinition(
    safe(null, (p) => {
      const at = locate(p.textDocument.uri)
      const found = at && findDefinition(at.folder, at.path, p.position)
      if (!at || !found) return null
      const position = { line: found.line, character: found.character }
      return {
        uri: pathToFileURL(at.folder.absolutePath(found.path)).href,
        range: { start: position, end: position },
      }
    }),
  )
  connection.onCompletion(
    safe([], (p) => {
      const at = locate(p.textDocument.uri)
      if (!at) return []
      const kinds = {
        part: CompletionItemKind.File,
        scene: CompletionItemKind.Reference,
        variable: CompletionItemKind.Variable,
        function: CompletionItemKind.Function,
        module: CompletionItemKind.Module,
        keyword: CompletionItemKind.Keyword,
      }
      return complete(at.folder, at.path, p.position).map((c) => ({
        label: c.label,
        kind: kinds[c.kind],
        detail: c.detail,
        ...(c.sortText !== undefined ? { sortText: c.sortText } : {}),
        textEdit: { range: c.range, newText: c.label },
      }))
    }),
  )
  connection.onHover(
    safe(null, (p) => {
      const at = locate(p.textDocument.uri)
      const text = at && hover(at.folder, at.path, p.position)
      return text ? { contents: { kind: 'markdown', value: text } } : null
    }),
  )
  connection.onDocumentSymbol(
    safe([], (p) => {
      const at = locate(p.textDocument.uri)
      if (!at) return []
      const convert = (h: HeadingSymbol): DocumentSymbol => {
        const range = { start: { line: h.line, character: 0 }, end: { line: h.line, character: 0 } }
        return {
          name: h.name,
          detail: `#${h.id}`,
          kind: SymbolKind.String,
          range,
          selectionRange: range,
          children: h.children.map(convert),
        }
      }
      return documentSymbols(at.folder, at.path).map(convert)
    }),
  )

  connection.onShutdown(() => checker.dispose())

  documents.listen(connection)
  connection.listen()
}
