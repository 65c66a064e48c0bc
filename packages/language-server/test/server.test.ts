// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/**
 * The server over stdio, as an editor drives it: diagnostics while typing (the edited part
 * against the rest of the folder, then the whole folder), definitions, completion, hover and
 * document symbols.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIXTURE } from './fixture.ts'
import { type LspClient, startClient, writeFolder } from './helpers/lsp-client.ts'

const INN = 'story/0001-inn.sty'
const ROAD = 'story/0002-road.sty'
let client: LspClient
let folder: string

beforeAll(async () => {
  folder = writeFolder(FIXTURE)
  client = await startClient(folder, { debounceMs: 10, fullCheckDelayMs: 80 })
}, 30_000)
afterAll(async () => {
  await client?.close()
})

const codes = (p: { diagnostics: Array<{ code: string }> }) => p.diagnostics.map((d) => d.code)

describe('spkg-language-server --stdio', () => {
  it('waits for typing to pause: a burst of keystrokes is checked once, at its last version', async () => {
    const slow = await startClient(folder, { debounceMs: 400, fullCheckDelayMs: 60_000 })
    try {
      const seen: number[] = []
      slow.connection.onNotification(
        'textDocument/publishDiagnostics',
        (p: { uri: string; version: number }) => {
          if (p.uri === slow.uri(ROAD)) seen.push(p.version)
        },
      )
      slow.open(ROAD, FIXTURE[ROAD]!)
      // A newer notification handler replaces the helper's: wait on our own list.
      await expect.poll(() => seen, { timeout: 15_000 }).toEqual([1])
      for (let v = 2; v <= 6; v++)
        slow.change(ROAD, v, FIXTURE[ROAD]!.replace('Fork', `Fork${'k'.repeat(v)}`))
      await expect.poll(() => seen, { timeout: 15_000 }).toEqual([1, 6])
    } finally {
      await slow.close()
    }
  })

  it('publishes no diagnostics for a clean part on open, then the errors as the author types', async () => {
    client.open(INN, FIXTURE[INN]!)
    expect((await client.diagnostics(INN, (p) => p.version === 1)).diagnostics).toEqual([])
    const broken = FIXTURE[INN]!.replace('0002-road.sty:road', '0002-road.sty:nowhere').replace(
      '${gold}',
      '${golden}',
    )
    client.change(INN, 2, broken)
    const found = await client.diagnostics(INN, (p) => p.version === 2 && p.diagnostics.length > 0)
    expect(codes(found)).toEqual(['story/undeclared', 'story/unknown-id'])
    const unknown = found.diagnostics[1]!
    // Line 10, the id after the colon: `[[ 0002-road.sty:nowhere ]]`, 0-based in LSP.
    expect(unknown.range.start).toEqual({ line: 9, character: 17 })
    expect(unknown.range.end).toEqual({ line: 9, character: 24 })
    expect(unknown.severity).toBe(1)
    client.change(INN, 3, FIXTURE[INN]!)
    expect((await client.diagnostics(INN, (p) => p.version === 3)).diagnostics).toEqual([])
  })

  it('clears a part’s error fixed in another part before the folder was ever checked whole', async () => {
    // The first full check comes only after a pause, here never: the error the inn's own check
    // published must still be cleared by the full check that follows the fix in the road.
    const quick = await startClient(writeFolder(FIXTURE), { debounceMs: 0, fullCheckDelayMs: 2_000 })
    try {
      quick.open(INN, FIXTURE[INN]!)
      await quick.diagnostics(INN, (p) => p.version === 1)
      quick.change(INN, 2, FIXTURE[INN]!.replace('0002-road.sty:road', '0002-road.sty:path'))
      expect(codes(await quick.diagnostics(INN, (p) => p.version === 2))).toEqual(['story/unknown-id'])
      quick.open(ROAD, FIXTURE[ROAD]!)
      quick.change(ROAD, 2, FIXTURE[ROAD]!.replace('[#road]', '[#path]'))
      const cleared = await quick.diagnostics(INN, (p) => p.diagnostics.length === 0)
      expect(cleared.version).toBe(2)
    } finally {
      await quick.close()
    }
  })

  it('checks a gate against the other parts of the folder as they are edited, not as saved', async () => {
    client.open(ROAD, FIXTURE[ROAD]!)
    await client.diagnostics(ROAD, (p) => p.version === 1)
    // Renaming the scene the inn's gate names breaks the inn, which is not being edited: the
    // whole-folder check that follows a pause republishes the inn's diagnostics.
    client.change(ROAD, 2, FIXTURE[ROAD]!.replace('[#road]', '[#path]'))
    const inn = await client.diagnostics(INN, (p) => p.diagnostics.length > 0)
    expect(codes(inn)).toEqual(['story/unknown-id'])
    client.change(ROAD, 3, FIXTURE[ROAD]!)
    expect((await client.diagnostics(INN, (p) => p.diagnostics.length === 0)).diagnostics).toEqual([])
  })

  it('reads the folder again when the editor reports files changed on disk', async () => {
    client.change(INN, 10, `${FIXTURE[INN]!}[[ 0003-far.sty ]]\n`)
    expect(codes(await client.diagnostics(INN, (p) => p.version === 10))).toContain('story/unknown-part')
    writeFileSync(join(folder, 'story/0003-far.sty'), 'Far away.\n')
    void client.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: client.uri('story/0003-far.sty'), type: 1 }],
    })
    const after = await client.diagnostics(INN, (p) => !codes(p).includes('story/unknown-part'))
    expect(codes(after)).not.toContain('story/unknown-part')
    client.change(INN, 11, FIXTURE[INN]!)
    await client.diagnostics(INN, (p) => p.version === 11)
  })

  it('goes to the definition of a scene id, a part, a jump target and a module', async () => {
    type Loc = { uri: string; range: { start: { line: number } } }
    const gate = await client.request<Loc>('textDocument/definition', INN, 9, 20)
    expect(gate).toMatchObject({ uri: client.uri(ROAD), range: { start: { line: 0 } } })
    const link = await client.request<Loc>('textDocument/definition', ROAD, 1, 22)
    expect(link).toMatchObject({ uri: client.uri(INN), range: { start: { line: 2 } } })
    const jump = await client.request<Loc>('textDocument/definition', INN, 7, 12)
    expect(jump).toMatchObject({ uri: client.uri(INN), range: { start: { line: 8 } } })
    const use = await client.request<Loc>('textDocument/definition', INN, 0, 7)
    expect(use).toMatchObject({ uri: client.uri('extensions/combat.xty'), range: { start: { line: 0 } } })
    const fn = await client.request<Loc>('textDocument/definition', INN, 3, 30)
    expect(fn).toMatchObject({ uri: client.uri('extensions/combat.xty'), range: { start: { line: 1 } } })
    expect(await client.request('textDocument/definition', INN, 3, 2)).toBeNull()
  })

  it('completes gate and link targets, ids after # and variable names', async () => {
    type Item = { label: string; kind: number }
    const labels = (items: Item[]) => items.map((i) => i.label)
    client.change(INN, 4, `${FIXTURE[INN]!}[[ 00\nGo [there > 0\n-> #\n{set g\n\${h\n[[ 0002-road.sty:f\n`)
    await client.diagnostics(INN, (p) => p.version === 4)
    const gate = labels(await client.request<Item[]>('textDocument/completion', INN, 10, 5))
    expect(gate).toEqual(
      expect.arrayContaining([
        '0001-inn.sty',
        '0001-inn.sty:inn',
        '0002-road.sty:road',
        '0002-road.sty:fork',
        '0002-road.sty:h3',
      ]),
    )
    expect(gate).not.toContain('0001-inn.sty:1')
    const link = labels(await client.request<Item[]>('textDocument/completion', INN, 11, 13))
    expect(link).toContain('0002-road.sty:fork')
    const ids = labels(await client.request<Item[]>('textDocument/completion', INN, 12, 4))
    expect(ids).toEqual(['inn', 'bar', 'out'])
    // Filtered by what is typed: `{set g` offers the names starting with g.
    const names = await client.request<Item[]>('textDocument/completion', INN, 13, 6)
    expect(labels(names)).toEqual(['gold'])
    expect(names[0]?.kind).toBe(6) // Variable
    expect(labels(await client.request<Item[]>('textDocument/completion', INN, 14, 3))).toEqual([
      'hp',
      'hurt',
    ])
    expect(await client.request<Item[]>('textDocument/completion', INN, 3, 3)).toEqual([])
    const modules = await client.request<Item[]>('textDocument/completion', INN, 0, 6)
    expect(modules.map((i) => [i.label, i.kind])).toEqual([['combat', 9]]) // Module
    client.change(INN, 5, FIXTURE[INN]!)
  })

  it('completes the ids of the part named before the colon, replacing what is typed', async () => {
    type Item = {
      label: string
      textEdit: { range: { start: { character: number }; end: { character: number } } }
    }
    client.change(INN, 6, `${FIXTURE[INN]!}[[ 0002-road.sty:f\n`)
    await client.diagnostics(INN, (p) => p.version === 6)
    const items = await client.request<Item[]>('textDocument/completion', INN, 10, 18)
    expect(items.map((i) => i.label)).toEqual(['0002-road.sty:fork'])
    expect(items[0]!.textEdit.range).toMatchObject({ start: { character: 3 }, end: { character: 18 } })
    client.change(INN, 7, FIXTURE[INN]!)
  })

  it('shows the documentation of a built-in on hover, and nothing on other words', async () => {
    const h = await client.request<{ contents: { value: string } }>('textDocument/hover', INN, 3, 45)
    expect(h.contents.value).toContain('len(x): the number of code points')
    expect(await client.request('textDocument/hover', INN, 3, 3)).toBeNull()
  })

  it("shows a variable's type and where it is declared, a module function and an id on hover", async () => {
    type Hover = { contents: { value: string } }
    const gold = await client.request<Hover>('textDocument/hover', INN, 3, 12)
    expect(gold.contents.value).toBe('`gold`: story variable (number)\n\n- default in story/0001-inn.sty:2')
    const hp = await client.request<Hover>('textDocument/hover', INN, 3, 30)
    expect(hp.contents.value).toContain('`hurt(n)`: module function, extensions/combat.xty:2')
    const out = await client.request<Hover>('textDocument/hover', INN, 7, 13)
    expect(out.contents.value).toBe('`#out`: heading, story/0001-inn.sty:9')
  })

  it('lists the headings as nested document symbols', async () => {
    type Sym = { name: string; detail: string; range: { start: { line: number } }; children: Sym[] }
    const road = await client.request<Sym[]>('textDocument/documentSymbol', ROAD, 0, 0)
    expect(road.map((s) => [s.name, s.detail, s.range.start.line, s.children.map((c) => c.name)])).toEqual([
      ['The Road', '#road', 0, ['Fork']],
      ['Far', '#h3', 4, []],
    ])
    const inn = await client.request<Sym[]>('textDocument/documentSymbol', INN, 0, 0)
    expect(inn[0]!.children.map((c) => c.name)).toEqual(['Outside'])
  })

  it('answers requests about documents it cannot place without failing, and reports bad text', async () => {
    void client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri: 'untitled:Untitled-1', languageId: 'spkg-story', version: 1, text: '[[ a.sty ]]' },
    })
    const untitled = { textDocument: { uri: 'untitled:Untitled-1' }, position: { line: 0, character: 4 } }
    expect(await client.connection.sendRequest('textDocument/definition', untitled)).toBeNull()
    expect(await client.connection.sendRequest('textDocument/completion', untitled)).toEqual([])
    client.open('story/0009-nul.sty', 'Text\u0000more\n')
    const nul = await client.diagnostics('story/0009-nul.sty')
    expect(codes(nul)).toContain('story/encoding')
    // Closed without saving: gone from the folder again, so a gate to it is an unknown part.
    void client.connection.sendNotification('textDocument/didClose', {
      textDocument: { uri: client.uri('story/0009-nul.sty') },
    })
    client.change(INN, 20, `${FIXTURE[INN]!}[[ 0009-nul.sty ]]\n`)
    expect(codes(await client.diagnostics(INN, (p) => p.version === 20))).toContain('story/unknown-part')
    client.change(INN, 21, FIXTURE[INN]!)
    await client.diagnostics(INN, (p) => p.version === 21)
  })

  it('reports a manifest bound on manifest.json, as spkg validate and an upload do', async () => {
    const manifest = JSON.parse(FIXTURE['manifest.json']!) as Record<string, unknown>
    const long = writeFolder({
      ...FIXTURE,
      'manifest.json': JSON.stringify({ ...manifest, description: 'd'.repeat(20_000) }),
    })
    const other = await startClient(long, { debounceMs: 0, fullCheckDelayMs: 10 })
    try {
      other.open(INN, FIXTURE[INN]!)
      const found = await other.diagnostics('manifest.json', (p) => p.diagnostics.length > 0)
      expect(found.diagnostics).toMatchObject([{ code: 'manifest/too-long', severity: 1 }])
      expect(found.diagnostics[0]!.message).toContain('"description"')
    } finally {
      await other.close()
    }
  })

  it('reads a folder without a manifest as the parts beside the file', async () => {
    const loose = writeFolder({ 'a.sty': '[[ b.sty:top ]]\n', 'b.sty': '# Top [#top]\n' })
    const other = await startClient(loose, { debounceMs: 0 })
    try {
      other.open('a.sty', '[[ b.sty:top ]]\n')
      expect((await other.diagnostics('a.sty')).diagnostics).toEqual([])
      other.change('a.sty', 2, '[[ b.sty:bottom ]]\n')
      expect(codes(await other.diagnostics('a.sty', (p) => p.version === 2))).toEqual(['story/unknown-id'])
    } finally {
      await other.close()
    }
  })
})
