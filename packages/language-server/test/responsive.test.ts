/**
 * The whole-folder check of a large story runs in a worker thread: the server answers requests
 * while it runs. Before, a request sent as the check started waited for all of it (about 1 s at
 * load 12 for the bench story in 40 parts; bench/language-server).
 */
import { afterAll, expect, it } from 'vitest'
import { type LspClient, startClient, writeFolder } from './helpers/lsp-client.ts'

const PARTS = 24
const SECTIONS = 120
const name = (k: number) => `story/${String(k).padStart(4, '0')}-rooms.sty`

/** A story of PARTS parts of SECTIONS sections each, linked across parts; the last part has an error. */
function largeFolder(): Record<string, string> {
  const files: Record<string, string> = {
    'manifest.json': JSON.stringify({
      story_lang: '1.0',
      parts: Array.from({ length: PARTS }, (_, k) => name(k + 1)),
    }),
  }
  for (let k = 1; k <= PARTS; k++) {
    const lines = k === 1 ? ['{set gold = 0}'] : []
    lines.push(`# Part ${k} [#part]`, 'The rooms begin.', '-> #r1')
    for (let i = 1; i <= SECTIONS; i++) {
      lines.push(`## Room ${i} [#r${i}]`, `You are in room ${i} with \${gold} coins.`, '{set gold += 1}')
      if (i < SECTIONS) lines.push(`* Left -> #r${i + 1}`, '* Right')
      else lines.push('* Onwards')
      lines.push(k < PARTS ? `  [[ ${name(k + 1).slice(6)}:r${i} ]]` : '  -> END')
    }
    if (k === PARTS) lines.push('## Last [#last]', `Counted \${nope}.`, '-> END')
    files[name(k)] = `${lines.join('\n')}\n`
  }
  return files
}

let client: LspClient | undefined
afterAll(async () => {
  await client?.close()
})

it('answers a request while it checks a large folder (the check runs off its thread)', async () => {
  const files = largeFolder()
  client = await startClient(writeFolder(files), { debounceMs: 0, fullCheckDelayMs: 0 })
  const first = name(1)
  const last = name(PARTS)
  client.open(first, files[first]!)
  await client.diagnostics(first, () => true, 60_000) // the edited part's check; the folder's starts now
  const events: string[] = []
  const folderChecked = client
    .diagnostics(last, () => true, 60_000)
    .then((p) => {
      events.push('folder checked')
      return p
    })
  const symbols = client.connection
    .sendRequest('textDocument/documentSymbol', { textDocument: { uri: client.uri(first) } })
    .then((s) => {
      events.push('answered')
      return s as Array<{ name: string }>
    })
  const [published, answer] = await Promise.all([folderChecked, symbols])
  expect(answer.map((s) => s.name)).toEqual(['Part 1'])
  // The other part's error comes only from the whole-folder check, after the answer.
  expect(published.diagnostics.map((d) => d.message).join('\n')).toContain('nope')
  expect(events).toEqual(['answered', 'folder checked'])
}, 120_000)
