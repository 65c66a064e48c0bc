import type { ReadingState } from '@spkg/manifest'
import { createStateStore } from '@spkg/state'
import { createMemoryDriver } from '@spkg/state/drivers/memory'

/** The fields of examples/crooked-inn/manifest.json a state store needs. */
const manifest = { id: '6f1c2a8e-4b7d-4e39-9a51-2f0d3c8b7e14', version: '1.0.0' }

/**
 * Saves a reading state, loads it back, then shows what a second device's stale save and a store
 * keyed by the slug instead of `manifest.id` get.
 */
export async function example(): Promise<string[]> {
  const lines: string[] = []
  const state: ReadingState = {
    format: 1,
    id: manifest.id,
    version: manifest.version,
    variables: { gold: 2, wolves: 2 },
    choices: { 'story/0002-road.sty:@end': ['>story/0003-forest.sty:edge'] },
    visitedChoiceGroups: ['story/0002-road.sty:@end'],
    rng: { algorithm: 'mulberry32', seed: 7, state: 7 },
    currentPart: 'story/0003-forest.sty',
    visitedParts: ['story/0001-inn.sty', 'story/0002-road.sty'],
    renderedParagraph: 1,
  }
  const cloud = createMemoryDriver()
  const phone = createStateStore(cloud, { storyId: manifest.id, version: manifest.version })
  await phone.save(manifest.id, state)
  const loaded = await phone.load(manifest.id)
  lines.push(`loaded: part ${loaded.state?.currentPart}, gold ${loaded.state?.variables.gold}`)

  const tablet = createStateStore(cloud, { storyId: manifest.id })
  await tablet.save(manifest.id, { ...state, renderedParagraph: 0 }).catch((error: { code: string }) => {
    lines.push(`tablet: ${error.code}`)
  })

  const bySlug = createStateStore(cloud, { storyId: 'crooked-inn' })
  await bySlug.save('crooked-inn', state).catch((error: { code: string }) => {
    lines.push(`by slug: ${error.code}`)
  })
  lines.push(`stored: ${(await cloud.keys()).join(', ')}`)

  await cloud.set('other', '{"format": 99}')
  const foreign = await createStateStore(cloud).load('other')
  lines.push(`foreign: ${foreign.diagnostics.map((d) => d.code).join(', ')}`)
  return lines
}
