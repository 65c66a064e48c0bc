import { parseReadingStateText } from '@spkg/manifest'
import { createStoryRun, resumeStoryRun } from '@spkg/story'

const files: Record<string, string> = {
  'story/0001-inn.sty': `{set gold = 3}
# The Crooked Inn
You have \${gold} coins. The [road > 0002-road.sty] waits.
[#bar]
* Buy a drink for \${2} coins
  {set gold -= 2}
  The ale is warm.
+ Rest
  You doze by the fire.
-> #bar`,
  'story/0002-road.sty': `You leave with \${gold} coins and roll \${2d6}.`,
}
const source = {
  id: 'inn-demo',
  parts: Object.keys(files),
  readPart: (path: string) => files[path], // called only for the parts a reader enters
}

const run = createStoryRun(source, { seed: 7 })
const answers = ['1']
for (let e = await run.next(); e; e = await run.next()) {
  if (e.type === 'block') console.log(e.index, e.block.kind, e.block.text)
  if (e.type === 'pause') {
    console.log(
      '?',
      e.options.map((o) => `${o.id}: ${o.text}`),
      e.links.map((l) => l.target),
    )
    const id = answers.shift()
    if (id === undefined) break // stop at the first pause left unanswered
    run.choose({ option: id })
  }
}
// 0 heading The Crooked Inn
// 1 paragraph You have 3 coins. The road waits.
// ? [ '1: Buy a drink for 2 coins', '2: Rest' ] [ 'story/0002-road.sty' ]
// 2 paragraph The ale is warm.
// ? [ '2: Rest' ] []

// Save at any pause; resume days later by replay, the scroll-back rebuilt.
const saved = JSON.stringify(run.saveState())
const { state } = parseReadingStateText(saved, { storyId: 'inn-demo' })
const { run: again, scrollBack } = await resumeStoryRun(source, state!)
console.log(scrollBack.map((b) => `${b.index}${b.block.seen ? ' (seen)' : ''}`))
// [ '0 (seen)', '1 (seen)', '2 (seen)' ]
again.choose({ option: '2' })
for (let e = await again.next(); e; e = await again.next()) {
  if (e.replay) continue // replayed events: the scroll-back, already shown
  if (e.type === 'block') console.log(e.block.text)
  if (e.type === 'pause') break // an unanswered pause is returned again by next(): stop here
}
// You doze by the fire.
