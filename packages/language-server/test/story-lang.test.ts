// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/**
 * The story-language version a folder is checked at, through the server over stdio: a folder
 * without a manifest (or whose manifest declares no `story_lang`) at 1.0, as `spkg validate`
 * reads it, or at the `storyLang` the editor chooses (an initialization option, or the workspace
 * configuration `spkg.storyLang`, pushed or pulled); a manifest's `story_lang` wins. A finding of
 * 1.0 that 1.1 would not report says how to turn 1.1 on.
 */
import { describe, expect, it } from 'vitest'
import { type ClientSide, type PublishedDiagnostics, startClient, writeFolder } from './helpers/lsp-client.ts'

/** 1.1 in a flat folder: glue, an alternative, a temp, turns(), a tunnel and its return. */
const STORY = [
  'Hello <>',
  'there.',
  'It is {seq red|green}.',
  '{temp n = 1}',
  '${n} ${turns()}',
  '-> #t ->',
  '-> END',
  '# T [#t]',
  'In.',
  '->->',
  '',
].join('\n')

const NO_MANIFEST = 'without a manifest.json the folder is read at 1.0, as spkg validate reads it'
const codes = (p: PublishedDiagnostics) => p.diagnostics.map((d) => d.code)

async function withServer<T>(
  files: Record<string, string>,
  options: object,
  run: (client: Awaited<ReturnType<typeof startClient>>) => Promise<T>,
  side?: ClientSide,
): Promise<T> {
  const client = await startClient(
    writeFolder(files),
    { debounceMs: 0, fullCheckDelayMs: 50, ...options },
    side,
  )
  try {
    return await run(client)
  } finally {
    await client.close()
  }
}

describe('the story-language version of a folder', () => {
  it('checks a folder without a manifest at 1.0, as spkg validate, and says how to read it at 1.1', async () => {
    await withServer({ 'story.sty': STORY }, {}, async (client) => {
      client.open('story.sty', STORY)
      const found = await client.diagnostics('story.sty', (p) => p.diagnostics.length > 0)
      expect(codes(found)).toEqual(
        expect.arrayContaining([
          'story/ink-syntax',
          'story/unknown-command',
          'story/undeclared',
          'story/unknown-function',
          'story/bad-expression',
        ]),
      )
      for (const d of found.diagnostics) expect(d.message, d.code).toContain(NO_MANIFEST)
      // the whole-folder check (in the worker thread) says the same
      const whole = await client.diagnostics('story.sty')
      expect(whole.diagnostics.map((d) => d.message)).toEqual(found.diagnostics.map((d) => d.message))
      const seq = found.diagnostics.find((d) => d.range.start.line === 2)!
      expect(seq.message).toBe(
        `unknown command '{seq}'; did you mean '{set}'? (write \\{ for a literal brace) (not reported at story language 1.1; ${NO_MANIFEST}: set the language server's storyLang to "1.1" (spkg validate --lang 1.1), or add a manifest.json with "story_lang": "1.1")`,
      )
      // The parser already advises 1.1 on a glue: only where to set it is added.
      const glue = found.diagnostics.find((d) => d.code === 'story/ink-syntax')!
      expect(glue.message).toMatch(
        /^'<>' \(glue\) is ink.*set story_lang to 1\.1, which has it \(without a manifest/,
      )
      expect(glue.message).not.toContain('not reported at story language 1.1')
      // A finding 1.1 reports as well says nothing of 1.1.
      client.change('story.sty', 2, `${STORY}\${nowhere}\n`)
      const more = await client.diagnostics('story.sty', (p) => p.version === 2)
      const nowhere = more.diagnostics.find((d) => d.range.start.line === 10)!
      expect(nowhere.code).toBe('story/undeclared')
      expect(nowhere.message).not.toContain('1.1')
    })
  })

  it('reads it at the storyLang the editor sends as an initialization option', async () => {
    await withServer({ 'story.sty': STORY }, { storyLang: '1.1' }, async (client) => {
      client.open('story.sty', STORY)
      expect((await client.diagnostics('story.sty')).diagnostics).toEqual([])
    })
  })

  it('follows the workspace configuration spkg.storyLang while the folder is open', async () => {
    await withServer({ 'story.sty': STORY }, {}, async (client) => {
      client.open('story.sty', STORY)
      await client.diagnostics('story.sty', (p) => p.diagnostics.length > 0)
      const push = (storyLang: unknown) =>
        client.connection.sendNotification('workspace/didChangeConfiguration', {
          settings: { spkg: { storyLang } },
        })
      await push('1.1')
      await client.diagnostics('story.sty', (p) => p.diagnostics.length === 0)
      // unset: back to the default, 1.0
      await push(null)
      const again = await client.diagnostics('story.sty', (p) => p.diagnostics.length > 0)
      expect(codes(again)).toContain('story/unknown-command')
    })
  })

  it('pulls spkg.storyLang from an editor that answers workspace/configuration', async () => {
    const asked: unknown[] = []
    await withServer(
      { 'story.sty': STORY },
      {},
      async (client) => {
        await expect.poll(() => asked.length, { timeout: 10_000 }).toBeGreaterThan(0)
        client.open('story.sty', STORY)
        expect((await client.diagnostics('story.sty')).diagnostics).toEqual([])
        expect(asked[0]).toEqual({ items: [{ section: 'spkg' }] })
      },
      {
        capabilities: { workspace: { configuration: true } },
        setup: (connection) =>
          connection.onRequest('workspace/configuration', (params: unknown) => {
            asked.push(params)
            return [{ storyLang: '1.1' }]
          }),
      },
    )
  })

  it("lets a manifest's story_lang win, and says to change it when it declares 1.0", async () => {
    const parts = { 'story/a.sty': STORY }
    const declared = {
      'manifest.json': JSON.stringify({ story_lang: '1.0', parts: ['story/a.sty'] }),
      ...parts,
    }
    await withServer(declared, { storyLang: '1.1' }, async (client) => {
      client.open('story/a.sty', STORY)
      const found = await client.diagnostics('story/a.sty', (p) => p.diagnostics.length > 0)
      const seq = found.diagnostics.find((d) => d.range.start.line === 2)!
      expect(seq.message).toContain(
        '(not reported at story language 1.1; manifest.json declares "story_lang": "1.0": set it to "1.1")',
      )
      // the parser's own advice, as it is: a manifest is where it says to set story_lang
      const glue = found.diagnostics.find((d) => d.code === 'story/ink-syntax')!
      expect(glue.message).toMatch(/set story_lang to 1\.1, which has it$/)
    })
    // A manifest that declares none reads at storyLang, as spkg validate --lang reads it.
    const undeclared = { 'manifest.json': JSON.stringify({ parts: ['story/a.sty'] }), ...parts }
    await withServer(undeclared, {}, async (client) => {
      client.open('story/a.sty', STORY)
      const found = await client.diagnostics('story/a.sty', (p) => p.diagnostics.length > 0)
      expect(found.diagnostics.find((d) => d.range.start.line === 2)!.message).toContain(
        'manifest.json declares no "story_lang", which reads as 1.0: add "story_lang": "1.1"',
      )
    })
    await withServer(undeclared, { storyLang: '1.1' }, async (client) => {
      client.open('story/a.sty', STORY)
      expect((await client.diagnostics('story/a.sty')).diagnostics).toEqual([])
    })
  })
})
