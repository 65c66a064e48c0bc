/** The README's example, run against the server's sources; its output is the one shown there. */
import { fileURLToPath } from 'node:url'
import { expect, it, vi } from 'vitest'
import { main } from './basic.ts'

it('prints the diagnostics the README shows', async () => {
  const lines: string[] = []
  const log = vi.spyOn(console, 'log').mockImplementation((...a) => void lines.push(a.join(' ')))
  const bin = fileURLToPath(new URL('../src/node/bin.ts', import.meta.url))
  const cwd = process.cwd()
  process.chdir(fileURLToPath(new URL('../../..', import.meta.url)))
  try {
    await main([process.execPath, '--conditions=@spkg/source', '--import', 'tsx', bin, '--stdio'])
  } finally {
    process.chdir(cwd)
    log.mockRestore()
  }
  expect(lines).toEqual([
    `story/unknown-id {"start":{"line":2,"character":17},"end":{"line":2,"character":22}} 'story/0002-road.sty' has no heading, anchor or group '#river'`,
  ])
})
