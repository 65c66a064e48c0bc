import { describe, expect, it } from 'vitest'
import { createLineReader } from './line-reader'

async function* chunks(...parts: Array<string | Uint8Array>) {
  for (const p of parts) yield p
}

describe('createLineReader', () => {
  it('splits lines across chunk borders, CRLF included, and returns the last unterminated line', async () => {
    const bytes = new TextEncoder().encode('é\r\nthree')
    const r = createLineReader(chunks('1\nma', 'p\n', bytes.slice(0, 1), bytes.slice(1)))
    const lines: Array<string | undefined> = []
    for (let i = 0; i < 5; i++) lines.push(await r.readLine())
    expect(lines).toEqual(['1', 'map', 'é', 'three', undefined])
  })

  it('returns undefined at once on empty input', async () => {
    expect(await createLineReader(chunks()).readLine()).toBeUndefined()
  })
})
