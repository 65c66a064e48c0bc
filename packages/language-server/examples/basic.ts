// What an editor does: start `spkg-language-server --stdio`, open a part, read the diagnostics.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node'

/** Runs the example; `command` starts the server (the installed bin by default). */
export async function main(command: string[] = ['spkg-language-server', '--stdio']): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'story-'))
  mkdirSync(join(folder, 'story'))
  writeFileSync(join(folder, 'manifest.json'), '{"parts": ["story/0001-inn.sty", "story/0002-road.sty"]}')
  writeFileSync(join(folder, 'story/0002-road.sty'), '# The Road [#road]\nIt forks.\n')
  const inn = '# The Inn\nDawn.\n[[ 0002-road.sty:river ]]\n'
  writeFileSync(join(folder, 'story/0001-inn.sty'), inn)

  const server = spawn(command[0]!, command.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] })
  const rpc = createMessageConnection(
    new StreamMessageReader(server.stdout),
    new StreamMessageWriter(server.stdin),
  )
  rpc.listen()
  await rpc.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} })
  await rpc.sendNotification('initialized', {})
  const uri = pathToFileURL(join(folder, 'story/0001-inn.sty')).href
  const published = new Promise<{ diagnostics: Array<{ code: string; message: string; range: unknown }> }>(
    (resolve) => rpc.onNotification('textDocument/publishDiagnostics', resolve),
  )
  await rpc.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'spkg-story', version: 1, text: inn },
  })
  for (const d of (await published).diagnostics) console.log(d.code, JSON.stringify(d.range), d.message)
  // story/unknown-id {"start":{"line":2,"character":17},"end":{"line":2,"character":22}} 'story/0002-road.sty' has no heading, anchor or group '#river'

  await rpc.sendRequest('shutdown')
  await rpc.sendNotification('exit')
  rpc.dispose()
}
