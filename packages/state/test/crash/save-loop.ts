/**
 * Child process of the crash test: saves ever-changing big states to one file as fast as it can
 * until it is killed. Prints `saving <n>` (synchronously: stdout is a pipe) as save `n` starts, so
 * the test kills it on that line, inside save `n`, with no timer.
 */

import { createFsDriver } from '../../src/node/fs-driver'
import { serializeReadingState } from '../../src/serialize-reading-state'

const dir = process.argv[2]
if (!dir) throw new Error('usage: save-loop <dir>')
// Serialized once, so the loop spends its time writing: a kill then lands inside a write.
const driver = createFsDriver({ dir })
const choices: Record<string, string[]> = {}
for (let i = 0; i < 40_000; i++) choices[`story/0001.sty:s${i}@1`] = [`option-${i}`]
const texts = [0, 1, 2].map((n) =>
  serializeReadingState({
    format: 1,
    id: 'story',
    variables: { n },
    choices,
    visitedChoiceGroups: Object.keys(choices),
    rng: { algorithm: 'mulberry32', seed: 1, state: n },
    visitedParts: [],
    renderedParagraph: n,
  }),
)
for (let n = 0; ; n++) {
  process.stdout.write(`saving ${n}\n`)
  await driver.set('story', texts[n % 3] ?? '')
}
