/**
 * The examples of the author's guide (`docs/*.md`) run here, so the guide cannot drift from the
 * engine. The convention (written at the top of docs/language.md): fenced `sty`/`xty`/`json`/...
 * blocks make a story folder (a bare `sty` block is `story.sty`; `file=<path>` names a file), an
 * optional `<!-- spkg <command> [args] -->` comment gives the command (default `spkg play`), and the
 * fenced `output` block that follows is the command's exact standard output.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../test/helpers/cli'

const DOCS = join(__dirname, '../../../docs')

export interface DocExample {
  doc: string
  line: number
  heading: string
  files: Record<string, string>
  args: string[]
  output: string
}

/** Splits a command comment into words; double quotes group words. */
function words(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? (m[2] as string))
}

/** Every example of one Markdown document, in order. */
export function extractExamples(doc: string, text: string): DocExample[] {
  const lines = text.split('\n')
  const examples: DocExample[] = []
  let files: Record<string, string> = {}
  let args: string[] | undefined
  let heading = ''
  let start = 0
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string
    if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '')
    const comment = /^<!-- spkg (.*) -->$/.exec(line)
    if (comment) {
      args = words(comment[1] as string)
      continue
    }
    const fence = /^(`{3,})(\S*)(.*)$/.exec(line)
    if (!fence) continue
    const [, ticks, lang, rest] = fence as unknown as [string, string, string, string]
    let j = i + 1
    while (j < lines.length && lines[j] !== ticks) j++
    const body = `${lines.slice(i + 1, j).join('\n')}\n`
    const file = /\bfile=(\S+)/.exec(rest)?.[1]
    if (lang === 'output') {
      examples.push({ doc, line: start + 1, heading, files, args: args ?? ['play'], output: body })
      files = {}
      args = undefined
    } else if (file) {
      if (Object.keys(files).length === 0) start = i
      files[file] = body
    } else if (lang === 'sty') {
      files = { 'story.sty': body }
      start = i
    } else {
      // Any other block (a shell session, a JSON sample) ends a pending example's files.
      files = {}
      args = undefined
    }
    i = j
  }
  return examples
}

const GUIDES = ['language.md', 'writing-stories.md', 'coming-from-ink.md']

describe("the author's guide: every example plays as shown", () => {
  for (const doc of GUIDES) {
    const examples = extractExamples(doc, readFileSync(join(DOCS, doc), 'utf8'))
    it(`${doc} has examples`, () => {
      expect(examples.length).toBeGreaterThan(doc === 'language.md' ? 15 : 0)
    })
    for (const ex of examples) {
      it(`${doc}:${ex.line} (${ex.heading}): spkg ${ex.args.join(' ')}`, async () => {
        const cwd = mkdtempSync(join(tmpdir(), 'spkg-docs-'))
        for (const [path, text] of Object.entries(ex.files)) {
          mkdirSync(dirname(join(cwd, 'example', path)), { recursive: true })
          writeFileSync(join(cwd, 'example', path), text)
        }
        const [command, ...rest] = ex.args as [string, ...string[]]
        const r = await runCli([command, 'example', ...rest], { cwd })
        expect(r.stdout).toBe(ex.output)
      })
    }
  }
})

describe('writing-stories.md: the tutorial', () => {
  it('runs every spkg command of its shell blocks, in order, from an empty folder', async () => {
    const text = readFileSync(join(DOCS, 'writing-stories.md'), 'utf8')
    const cwd = mkdtempSync(join(tmpdir(), 'spkg-tutorial-'))
    const home = mkdtempSync(join(tmpdir(), 'spkg-tutorial-home-'))
    mkdirSync(join(home, '.spkg')) // the tutorial's `mkdir -p ~/.spkg`
    const commands = [...text.matchAll(/```sh\n([\s\S]*?)```/g)]
      .flatMap((m) => (m[1] as string).split('\n'))
      .map((l) => l.replace(/\s+#.*$/, '').trim())
      .filter((l) => l.startsWith('spkg '))
    expect(commands.length).toBeGreaterThan(10)
    for (const line of commands) {
      const args = words(line.replaceAll('~/', `${home}/`)).slice(1)
      // Interactive play: the reader answers the first menu with 1, then input ends.
      const r = await runCli(args, { cwd, stdin: '1\n' })
      expect(r.code, `${line}\n${r.stdout}${r.stderr}`).toBe(0)
    }
    expect(readFileSync(join(cwd, 'copy.spkg')).equals(readFileSync(join(cwd, 'lighthouse.spkg')))).toBe(true)
  })
})

describe("the author's guide: links", () => {
  it('every link to a diagnostic code reaches its entry in docs/diagnostic-codes.md', () => {
    const anchors = new Set(
      [...readFileSync(join(DOCS, 'diagnostic-codes.md'), 'utf8').matchAll(/<a id="([^"]+)"><\/a>/g)].map(
        (m) => m[1],
      ),
    )
    let links = 0
    for (const doc of GUIDES)
      for (const m of readFileSync(join(DOCS, doc), 'utf8').matchAll(/\(diagnostic-codes\.md#([^)]+)\)/g)) {
        links++
        expect(anchors.has(m[1]), `${doc}: #${m[1]}`).toBe(true)
      }
    expect(links).toBeGreaterThan(2)
  })
})

describe('extractExamples', () => {
  it('groups file blocks, reads the command comment and skips other blocks', () => {
    const text = [
      '# A',
      '```sty',
      'Hi.',
      '```',
      '```output',
      'x',
      '```',
      '## B',
      '```xty file=m.xty',
      '{const N = 1}',
      '```',
      '```sty file=s.sty',
      '{use m}',
      '```',
      '<!-- spkg play --choose "1,2" -->',
      '```output',
      'y',
      '```',
      '```sh',
      'spkg init',
      '```',
      '```output',
      'z',
      '```',
    ].join('\n')
    const [a, b, c] = extractExamples('t.md', text)
    expect(a).toMatchObject({ heading: 'A', files: { 'story.sty': 'Hi.\n' }, args: ['play'], output: 'x\n' })
    expect(b).toMatchObject({
      heading: 'B',
      files: { 'm.xty': '{const N = 1}\n', 's.sty': '{use m}\n' },
      args: ['play', '--choose', '1,2'],
    })
    expect(c?.files).toEqual({})
  })
})
