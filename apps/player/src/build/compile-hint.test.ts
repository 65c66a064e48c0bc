import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { COMPILE_HINT, compileHint } from './compile-hint'

type Bundle = Record<string, { type: 'chunk'; fileName: string; moduleIds: string[] } | { type: 'asset' }>

let dir: string | undefined
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = undefined
})

/** Writes the chunks' files, then runs the plugin's hook on them the way Rollup would. */
function run(files: Record<string, [code: string, moduleIds: string[]]>): (name: string) => string {
  dir = mkdtempSync(join(tmpdir(), 'spkg-hint-'))
  const bundle: Bundle = { 'style.css': { type: 'asset' } }
  for (const [name, [code, moduleIds]] of Object.entries(files)) {
    writeFileSync(join(dir, name), code)
    bundle[name] = { type: 'chunk', fileName: name, moduleIds }
  }
  const hook = compileHint().writeBundle as unknown as (options: { dir: string }, bundle: Bundle) => void
  hook.call({}, { dir }, bundle)
  return (name) => readFileSync(join(dir!, name), 'utf8')
}

describe('compileHint', () => {
  it('puts the hint on the first line of the chunks that hold the reader, and only those', () => {
    const read = run({
      'index.js': ['console.log(1)', ['/w/apps/player/src/main.ts']],
      'story-view.js': [
        'const __vite__mapDeps=()=>[];\nexport{a}',
        ['/w/apps/player/src/views/story-view.ts', '/w/packages/reader/src/index.ts'],
      ],
      'vendor.js': ['x()', ['/app/node_modules/@spkg/reader/dist/index.js']],
    })
    expect(read('index.js')).toBe('console.log(1)')
    expect(read('story-view.js')).toBe(`${COMPILE_HINT}const __vite__mapDeps=()=>[];\nexport{a}`)
    expect(read('vendor.js')).toBe(`${COMPILE_HINT}x()`)
  })

  it('does not add it twice', () => {
    const read = run({ 'a.js': [`${COMPILE_HINT}x()`, ['C:\\w\\packages\\reader\\src\\a.ts']] })
    expect(read('a.js')).toBe(`${COMPILE_HINT}x()`)
  })
})
