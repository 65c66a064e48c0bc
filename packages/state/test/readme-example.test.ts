/**
 * The README's usage example runs as written, with the manifest of examples/crooked-inn and a
 * state of that story, and prints what its comments say.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { format } from 'node:util'
import type { ReadingState } from '@spkg/manifest'
import { expect, it } from 'vitest'
import { createStateStore } from '../src/create-state-store'
import { createMemoryDriver } from '../src/drivers/memory'

const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8')
const example = /## Usage\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? ''
const manifest = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../examples/crooked-inn/manifest.json'), 'utf8'),
) as { id: string; version: string; parts: Array<{ file: string }> }

it('runs the README usage example, which prints what its comments say', async () => {
  const state: ReadingState = {
    format: 1,
    id: manifest.id,
    version: manifest.version,
    variables: { gold: 2 },
    choices: { 'story/0002-road.sty:@end': ['>story/0003-forest.sty:edge'] },
    visitedChoiceGroups: ['story/0002-road.sty:@end'],
    rng: { algorithm: 'mulberry32', seed: 7, state: 7 },
    currentPart: 'story/0003-forest.sty',
    visitedParts: manifest.parts.slice(0, 2).map((p) => p.file),
    renderedParagraph: 1,
  }
  const imports = [...example.matchAll(/^import \{ (\w+) \} from '([^']+)'$/gm)].map((m) => `${m[1]} ${m[2]}`)
  expect(imports).toEqual(['createStateStore @spkg/state', 'createMemoryDriver @spkg/state/drivers/memory'])
  const body = example.replace(/^import .*$/gm, '')
  const printed: string[] = []
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor
  const run = new AsyncFunction(
    'createStateStore',
    'createMemoryDriver',
    'manifest',
    'state',
    'console',
    body,
  )
  await run(createStateStore, createMemoryDriver, manifest, state, {
    log: (...args: unknown[]) => printed.push(format(...args)),
  })
  expect(printed).toEqual([
    'part story/0003-forest.sty, gold 2',
    'state/conflict',
    'state/other-story',
    "undefined [ 'state/unknown-format' ]",
  ])
  // Each printed line is the comment right under the line that prints it.
  const comments = example
    .split('\n')
    .filter((line, i, lines) => line.startsWith('// ') && /console\.log/.test(lines[i - 1] ?? ''))
    .map((line) => line.slice(3))
  expect(comments.map((c, i) => c.startsWith(printed[i] ?? '\0'))).toEqual(printed.map(() => true))
})
