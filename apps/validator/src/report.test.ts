import { describe, expect, it } from 'vitest'
import type { CliIO } from './cli-types'
import { formatDiagnosticLine, printable, writeJson, writeJsonList } from './report'

/** Captures what a writer prints, and how many writes it took. */
function capture(write: (io: CliIO) => void): { text: string; writes: number } {
  let text = ''
  let writes = 0
  const sink = {
    write: (s: string) => {
      text += s
      writes++
      return true
    },
    isTTY: false,
  }
  write({ stdout: sink, stderr: sink, cwd: '/', env: {} } as unknown as CliIO)
  return { text, writes }
}

describe('writeJsonList', () => {
  const head = { loads: true, valid: false, manifest: { title: 'Ünïcode "quoted"\nline', parts: ['a', 'b'] } }
  const item = (i: number) => ({
    code: i % 2 ? 'story/undeclared' : 'pkg/not-zip',
    message: `line one\nline two ${'→'.repeat(i % 3)}`,
    path: i % 5 ? `story/${i}.sty` : undefined,
    line: i,
    nested: { list: [i, [], {}], none: null },
  })

  it.each([0, 1, 2, 511, 512, 513, 1500])('prints %i items exactly as one JSON.stringify would', (n) => {
    const items = Array.from({ length: n }, (_, i) => i)
    const whole = capture((io) => writeJson(io, { ...head, diagnostics: items.map(item) }))
    const listed = capture((io) => writeJsonList(io, head, 'diagnostics', items, item))
    expect(listed.text).toBe(whole.text)
    expect(JSON.parse(listed.text).diagnostics).toHaveLength(n)
  })

  it('writes in chunks, not as one string', () => {
    const items = Array.from({ length: 1500 }, (_, i) => i)
    expect(capture((io) => writeJsonList(io, head, 'diagnostics', items, item)).writes).toBeGreaterThan(2)
  })

  it('puts the list last, replacing a field of the same name in the head', () => {
    const text = capture((io) => writeJsonList(io, { list: 'old', after: 1 }, 'list', [1], (x) => x)).text
    expect(text).toBe(`${JSON.stringify({ after: 1, list: [1] }, null, 2)}\n`)
  })
})

describe('printable', () => {
  it('escapes controls, DEL, C1, line separators and bidi overrides, and leaves other text alone', () => {
    expect(printable('a\nb\rc\td\x1b[2Je\x07f\x7fg\x9bh\u2028i\u202ej')).toBe(
      'a\\nb\\rc\\td\\x1b[2Je\\x07f\\x7fg\\x9bh\\u2028i\\u202ej',
    )
    expect(printable('Überfahrt → café 🌲')).toBe('Überfahrt → café 🌲')
  })

  it('keeps a diagnostic line one line, its own colours intact', () => {
    const d = {
      code: 'pkg/unsafe-path',
      severity: 'fatal',
      message: 'bad\nname',
      path: 'a\rb',
      field: '/x\n',
    } as const
    expect(formatDiagnosticLine(d)).toBe('a\\rb: fatal pkg/unsafe-path: bad\\nname [/x\\n]')
    expect(formatDiagnosticLine(d, true)).toBe(
      'a\\rb: \x1b[1;31mfatal\x1b[0m pkg/unsafe-path: bad\\nname [/x\\n]',
    )
  })
})
