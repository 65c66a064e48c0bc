/**
 * The "Parse and check" example of the README runs and prints what its comments say.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { inspect } from 'node:util'
import { transformSync } from 'esbuild'
import { expect, it } from 'vitest'
import { checkStory } from '../src/check/check-story.ts'
import { parseStory } from '../src/parse/parse-story.ts'

it('the README parse-and-check example prints what its comments say', () => {
  const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('## Parse and check'))
  const code = /```ts\n([\s\S]*?)```/.exec(section)![1]!
  // each console.log is followed by its output: a trailing comment, or comment lines below it
  const expected: string[] = []
  const lines = code.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (!line.startsWith('console.log(')) continue
    const trailing = /\) \/\/ (.*)$/.exec(line)
    let j = i + 1
    while (!lines[j - 1]!.trimEnd().endsWith(')') && !trailing) j++
    const below: string[] = []
    for (let k = trailing ? i + 1 : j; lines[k]?.startsWith('// '); k++) below.push(lines[k]!.slice(3))
    expected.push(trailing ? trailing[1]! : below.join('\n'))
  }
  const js = transformSync(code.replace(/^import .*$/m, ''), { loader: 'ts' }).code
  const printed: string[] = []
  const log = (v: unknown) => printed.push(inspect(v, { breakLength: 100 }))
  new Function('parseStory', 'checkStory', 'console', js)(parseStory, checkStory, { log })
  expect(expected.length).toBe(4)
  expect(printed.map((p) => p.replace(/\s+/g, ' '))).toEqual(expected.map((e) => e.replace(/\s+/g, ' ')))
})
