/**
 * Drives `spkg-language-server --stdio` as an editor does: a child process, JSON-RPC with
 * Content-Length framing on its stdin and stdout (vscode-jsonrpc), the initialize handshake, and
 * a queue of the diagnostics the server publishes.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import {
  createMessageConnection,
  type MessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node'

const root = fileURLToPath(new URL('../../../..', import.meta.url))
const bin = fileURLToPath(new URL('../../src/node/bin.ts', import.meta.url))

export interface PublishedDiagnostics {
  uri: string
  version?: number
  diagnostics: Array<{
    range: { start: { line: number; character: number }; end: { line: number; character: number } }
    severity: number
    code: string
    message: string
  }>
}

export interface LspClient {
  connection: MessageConnection
  process: ChildProcess
  uri(path: string): string
  open(path: string, text: string): void
  change(path: string, version: number, text: string): void
  /** The next diagnostics published for `path` that satisfy `accept`, or a rejection after `ms`. */
  diagnostics(
    path: string,
    accept?: (p: PublishedDiagnostics) => boolean,
    ms?: number,
  ): Promise<PublishedDiagnostics>
  request<T>(method: string, path: string, line: number, character: number): Promise<T>
  close(): Promise<void>
}

/** Writes a story folder (paths relative to it) in a fresh temporary directory. */
export function writeFolder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'spkg-ls-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

/** What the editor says it can do, and its handlers of the server's requests (set up before the handshake). */
export interface ClientSide {
  capabilities?: object
  setup?: (connection: MessageConnection) => void
}

/** Spawns the server from its sources and completes the initialize handshake. */
export async function startClient(
  folder: string,
  initializationOptions: object = {},
  side: ClientSide = {},
): Promise<LspClient> {
  const child = spawn(process.execPath, ['--conditions=@spkg/source', '--import', 'tsx', bin, '--stdio'], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const connection = createMessageConnection(
    new StreamMessageReader(child.stdout!),
    new StreamMessageWriter(child.stdin!),
  )
  const waiting: Array<{
    uri: string
    accept: (p: PublishedDiagnostics) => boolean
    resolve: (p: PublishedDiagnostics) => void
  }> = []
  const seen: PublishedDiagnostics[] = []
  connection.onNotification('textDocument/publishDiagnostics', (p: PublishedDiagnostics) => {
    const i = waiting.findIndex((w) => w.uri === p.uri && w.accept(p))
    if (i >= 0) waiting.splice(i, 1)[0]!.resolve(p)
    else seen.push(p)
  })
  side.setup?.(connection)
  connection.listen()
  const uri = (path: string) => pathToFileURL(join(folder, path)).href
  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(folder).href,
    capabilities: side.capabilities ?? {},
    initializationOptions,
  })
  await connection.sendNotification('initialized', {})
  return {
    connection,
    process: child,
    uri,
    open(path, text) {
      seen.length = 0 // only what answers this change counts
      void connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: uri(path), languageId: 'spkg-story', version: 1, text },
      })
    },
    change(path, version, text) {
      seen.length = 0
      void connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: uri(path), version },
        contentChanges: [{ text }],
      })
    },
    diagnostics(path, accept = () => true, ms = 15_000) {
      const target = uri(path)
      const i = seen.findIndex((p) => p.uri === target && accept(p))
      if (i >= 0) return Promise.resolve(seen.splice(i, 1)[0]!)
      return new Promise((resolve, reject) => {
        const w = { uri: target, accept, resolve }
        waiting.push(w)
        setTimeout(() => {
          const at = waiting.indexOf(w)
          if (at >= 0) {
            waiting.splice(at, 1)
            reject(new Error(`no diagnostics for ${path} within ${ms} ms`))
          }
        }, ms).unref()
      })
    },
    request(method, path, line, character) {
      return connection.sendRequest(method, {
        textDocument: { uri: uri(path) },
        position: { line, character },
      })
    },
    async close() {
      await connection.sendRequest('shutdown').catch(() => undefined)
      void connection.sendNotification('exit').catch(() => undefined)
      connection.dispose()
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        setTimeout(() => {
          child.kill()
          resolve()
        }, 5_000).unref()
      })
    },
  }
}
