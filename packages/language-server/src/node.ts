/**
 * @spkg/language-server: the language server of the spkg story language (`.sty`, `.xty`) for any
 * editor that speaks the Language Server Protocol. Node only: it reads the story folder from disk.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node'
import { type LanguageServerOptions, serveConnection } from './node/server.ts'

export type { LanguageServerOptions }

/**
 * Starts the server on the transport named by the process arguments (`--stdio`, `--node-ipc`,
 * `--socket=<port>`), as `spkg-language-server --stdio` does.
 */
export function startLanguageServer(options: LanguageServerOptions = {}): void {
  serveConnection(createConnection(ProposedFeatures.all), options)
}
