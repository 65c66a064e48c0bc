import type { ReadingState } from '@spkg/manifest'
import { createStateStore } from '@spkg/state'
import { createMemoryDriver } from '@spkg/state/drivers/memory'

/** Saves a reading state, loads it back, then shows what a second device's stale save gets. */
export async function example(): Promise<string[]> {
  const lines: string[] = []
  const state: ReadingState = {
    format: 1,
    id: 'crooked-inn',
    variables: { gold: 2, wolves: 2 },
    choices: { 'story/0002-road.sty:@end': ['>story/0003-forest.sty:edge'] },
    visitedChoiceGroups: ['story/0002-road.sty:@end'],
    rng: { algorithm: 'mulberry32', seed: 7, state: 7 },
    currentPart: 'story/0003-forest.sty',
    visitedParts: ['story/0001-inn.sty', 'story/0002-road.sty'],
    renderedParagraph: 1,
  }
  const cloud = createMemoryDriver()
  const phone = createStateStore(cloud, { storyId: 'crooked-inn' })
  await phone.save('crooked-inn', state)
  const loaded = await phone.load('crooked-inn')
  lines.push(`loaded: part ${loaded.state?.currentPart}, gold ${loaded.state?.variables.gold}`)

  const tablet = createStateStore(cloud, { storyId: 'crooked-inn' })
  await tablet.save('crooked-inn', { ...state, renderedParagraph: 0 }).catch((error: { code: string }) => {
    lines.push(`tablet: ${error.code}`)
  })

  await cloud.set('other', '{"format": 99}')
  const foreign = await createStateStore(cloud).load('other')
  lines.push(`foreign: ${foreign.diagnostics.map((d) => d.code).join(', ')}`)
  return lines
}
