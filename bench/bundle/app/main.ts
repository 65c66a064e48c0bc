/**
 * A tiny story player, the smallest real consumer of reader + story: open a package, play its
 * story, save, and resume from a saved state checked by `parseReadingStateText`. `pnpm bench bundle` builds it for browsers and weighs the result.
 */
import { parseReadingStateText } from '@spkg/manifest'
import { openPackage } from '@spkg/reader'
import { createStoryRun, resumeStoryRun } from '@spkg/story'

export async function play(bytes: Uint8Array, saved?: string): Promise<string[]> {
  const opened = await openPackage(bytes)
  if (!opened.ok) return opened.diagnostics.map((d) => `${d.code}: ${d.message}`)
  const source = opened.package.storySource()
  const state = saved
    ? parseReadingStateText(saved, { storyId: opened.package.manifest?.id }).state
    : undefined
  const run = state ? (await resumeStoryRun(source, state)).run : createStoryRun(source)
  const out: string[] = []
  for (let e = await run.next(); e; e = await run.next()) {
    if (e.type === 'block') out.push(e.block.text)
    if (e.type === 'pause') {
      out.push(JSON.stringify(run.saveState()))
      break
    }
  }
  return out
}

const input = document.querySelector('input')
input?.addEventListener('change', async () => {
  const file = input.files?.[0]
  if (!file) return
  const lines = await play(
    new Uint8Array(await file.arrayBuffer()),
    localStorage.getItem('save') ?? undefined,
  )
  document.body.append(lines.join('\n'))
})
