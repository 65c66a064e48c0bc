// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the story language interpolates with ${}
/**
 * Tunnels and threads (1.1, README "Language versions and 1.1", sections 4 and 5): play
 * transcripts, the reading state's `tunnels`, and save/resume by replay in the middle of both.
 */
import { fc, test } from '@fast-check/vitest'
import { parseReadingState, type StorySourceLike } from '@spkg/manifest'
import { describe, expect, it } from 'vitest'
import { fromPause, live, memorySource, play } from '../../test/helpers/play.ts'
import { createStoryRun } from './create-story-run.ts'
import { resumeStoryRun } from './resume-story-run.ts'
import type { StoryEvent, StoryRun } from './types.ts'

const v11 = (files: Record<string, string>, parts?: string[]): StorySourceLike => ({
  ...memorySource(files, parts ? { parts } : {}),
  lang: '1.1',
})
const one = (text: string, answers: string[] = []) => play(v11({ 'a.sty': text }), answers, { seed: 1 })

/** Each list of answers played, saved and resumed gives the same state, with no diagnostic. */
async function expectResumes(text: string, answerLists: string[][]): Promise<void> {
  for (const answers of answerLists) {
    const first = await one(text, answers)
    const { run, diagnostics } = await resumeStoryRun(v11({ 'a.sty': text }), first.run.saveState())
    expect(diagnostics).toEqual([])
    expect(run.saveState()).toEqual(first.run.saveState())
  }
}

describe('tunnels', () => {
  it('runs the section and comes back to the line after the call, each time', async () => {
    const { lines } = await one(
      'Start.\n-> #tun ->\nBack.\n-> #tun ->\nAgain.\n-> END\n# [#tun]\nIn the tunnel.\n->->',
    )
    expect(lines).toEqual([
      '== part a.sty',
      '#0 paragraph "Start."',
      '#1 paragraph "In the tunnel."',
      '#2 paragraph "Back."',
      '#3 paragraph "In the tunnel."',
      '#4 paragraph "Again."',
      '-- end',
    ])
  })

  it('nests, and pauses inside a tunnel as anywhere', async () => {
    const story = `-> #a ->
Main end.
-> END
# [#a]
A start.
-> #b ->
A after b.
->->
# [#b]
B.
* Left
  Went left.
* Right
->->`
    const { lines } = await one(story, ['1'])
    expect(lines).toEqual([
      '== part a.sty',
      '#0 paragraph "A start."',
      '#1 paragraph "B."',
      '? [a.sty:b@1] 1 "Left" | 2 "Right"',
      '> 1',
      '#2 paragraph "Went left."',
      '#3 paragraph "A after b."',
      '#4 paragraph "Main end."',
      '-- end',
    ])
  })

  it("'->-> #id' returns, then jumps to the id of its file", async () => {
    const { lines } = await one('-> #t ->\nNot shown.\n-> END\n# [#t]\nIn.\n->-> #away\n# [#away]\nAway.')
    expect(lines).toEqual(['== part a.sty', '#0 paragraph "In."', '#1 paragraph "Away."', '-- end'])
  })

  it("'->->' with no tunnel open is story/tunnel-return and ends the story", async () => {
    const { lines, events } = await one('Start.\n->->\n')
    expect(lines).toEqual(['== part a.sty', '#0 paragraph "Start."', '! story/tunnel-return 2:1', '-- end'])
    const d = events.find((e) => e.type === 'diagnostic')
    expect(d?.type === 'diagnostic' && d.diagnostic).toMatchObject({
      severity: 'error',
      path: 'a.sty',
      message:
        "'->->' ran with no tunnel open, so the story ends here; reach it only through a tunnel call ('-> #id ->'), or end with '-> END'",
    })
  })

  it('returns at the end of the part when the section has no ->-> (ink stops with an error)', async () => {
    const { lines } = await one('-> #t ->\nBack.\n-> END\n# [#t]\nIn.')
    expect(lines).toEqual(['== part a.sty', '#0 paragraph "In."', '#1 paragraph "Back."', '-- end'])
  })

  it('keeps the tunnel open across a jump inside it, as ink does', async () => {
    const { lines } = await one('-> #t ->\nBack.\n-> END\n# [#t]\n-> #u\n# [#u]\nU.\n->->')
    expect(lines.slice(1)).toEqual(['#0 paragraph "U."', '#1 paragraph "Back."', '-- end'])
  })

  it('tunnels into another part and returns into the caller, a part entry each way', async () => {
    const src = v11({
      'a.sty': 'A.\n-> b.sty:far ->\nBack in A ${visits()}.\n-> b.sty ->\nA again.\n-> END',
      'b.sty': '{set x = 1}\nB start.\n## Far [#far]\nFar ${x}.\n->->',
    })
    const { lines, run } = await play(src, [], { seed: 1 })
    expect(lines).toEqual([
      '== part a.sty',
      '#0 paragraph "A."',
      '== part b.sty:far',
      '#0 heading2 "Far"',
      '#1 paragraph "Far 1."',
      '== part a.sty',
      '#0 paragraph "Back in A 1."',
      '== part b.sty',
      '#0 paragraph "B start."',
      '#1 heading2 "Far"',
      '#2 paragraph "Far 1."',
      '== part a.sty',
      '#0 paragraph "A again."',
      '-- end',
    ])
    const state = run.saveState()
    expect(state.visitedParts).toEqual(['a.sty', 'b.sty', 'a.sty', 'b.sty'])
    expect(state.currentPart).toBe('a.sty')
  })

  it("'->-> part.sty:id' returns and goes on there, as a gate", async () => {
    const src = v11({ 'a.sty': '-> #t ->\nNot shown.\n# [#t]\n->-> b.sty:x', 'b.sty': 'No.\n[#x]\nX.' })
    const { lines } = await play(src, [], { seed: 1 })
    expect(lines).toEqual(['== part a.sty', '== part b.sty:x', '#0 paragraph "X."', '-- end'])
  })

  it('saves the open tunnels as call ids and resumes inside them', async () => {
    const story = `# Top
-> #a ->
-> #a ->
Done.
-> END
# A [#a]
-> #b ->
->->
## B [#b]
+ Stay
->->`
    const { run } = await one(story, ['1'])
    const state = run.saveState()
    expect(state.tunnels).toEqual(['a.sty:h1->2', 'a.sty:a->1'])
    const parsed = parseReadingState(JSON.parse(JSON.stringify(state)), { storyId: 'test-story' })
    expect(parsed.diagnostics).toEqual([])
    const { run: again, diagnostics } = await resumeStoryRun(v11({ 'a.sty': story }), parsed.state!)
    expect(diagnostics).toEqual([])
    const rest = await play(again, ['1'])
    expect(rest.lines.filter((l) => !l.startsWith('#') && !l.startsWith('=='))).toContain('-- end')
    expect(rest.lines.at(-2)).toBe('#5 paragraph "Done."')
  })

  it('counts a saved stack that the replay does not rebuild as a divergence', async () => {
    const story = '-> #a ->\n-> END\n# [#a]\n+ Stay\n->->'
    const { run } = await one(story)
    const state = { ...run.saveState(), tunnels: ['a.sty:h0->9'] }
    const { diagnostics } = await resumeStoryRun(v11({ 'a.sty': story }), state)
    expect(diagnostics.map((d) => d.code)).toEqual(['story/resume-diverged'])
  })

  it('writes no tunnels field when none is open (a 1.0 state stays as it was)', async () => {
    const { run } = await one('+ Stay\n-> #a ->\n# [#a]\n->->')
    expect('tunnels' in run.saveState()).toBe(false)
  })
})

describe('threads', () => {
  const HUB = `Main text.
<- #side
<- #other
[#main]
* Main option
  Main chosen.
  -> END
# [#side]
Side text.
* Side option
  Side chosen.
* {if false} Hidden
Side after.
-> END
# [#other]
Other text.
[#o]
* Other option [#ask]
  Other chosen.
  -> #side
`
  it("shows the thread's text at once and offers its first group's options after the pause's own", async () => {
    const { lines } = await one(HUB, ['side@1.1'])
    expect(lines).toEqual([
      '== part a.sty',
      '#0 paragraph "Main text."',
      '#1 paragraph "Side text."',
      '#2 paragraph "Other text."',
      '? [a.sty:main] 1 "Main option" | side@1.1 "Side option" | o.ask "Other option"',
      '> 1',
      '#3 paragraph "Side chosen."',
      '#4 paragraph "Side after."',
      '-- end',
    ])
  })

  it("records a thread's choice under the thread's group, and the pause's key points there", async () => {
    const { run } = await one(HUB, ['o.ask'])
    const state = run.saveState()
    expect(state.choices['a.sty:main']).toEqual(['<a.sty:o'])
    expect(state.choices['a.sty:o']).toEqual(['ask'])
    expect(state.visitedChoiceGroups).toEqual(['a.sty:side@1', 'a.sty:o', 'a.sty:main'])
  })

  it('keeps once-only records per thread group, and pauses at the end of a part on threads alone', async () => {
    const story = `-> #hub
# [#talk]
[#t]
* Ask [#ask]
  Asked.
  -> #hub
+ Bye [#bye]
  -> END
# [#hub]
<- #talk`
    const { lines } = await one(story, ['t.ask', 't.bye'])
    expect(lines).toEqual([
      '== part a.sty',
      '? [a.sty:@end] t.ask "Ask" | t.bye "Bye"',
      '> ask',
      '#0 paragraph "Asked."',
      '? [a.sty:@end] t.bye "Bye"',
      '> bye',
      '-- end',
    ])
  })

  it('runs a tunnel inside a thread before its group, on its own copy of the open tunnels (as ink)', async () => {
    const story = `Main.
<- #side
* M
  -> END
# [#side]
-> #t ->
* S
  Side chosen.
  -> END
# [#t]
In t.
->->`
    const { lines, run } = await one(story, ['side@1.1'])
    expect(lines).toEqual([
      '== part a.sty',
      '#0 paragraph "Main."',
      '#1 paragraph "In t."',
      '? [a.sty:h0@1] 1 "M" | side@1.1 "S"',
      '> 1',
      '#2 paragraph "Side chosen."',
      '-- end',
    ])
    expect(run.saveState().tunnels).toBeUndefined()
  })

  it("goes on with the tunnels open where the thread started when its option is taken (ink's fork)", async () => {
    const story = `<- #side
-> #t ->
-> END
# [#t]
* In the tunnel
->->
# [#side]
* Side
  Side chosen.
  ->->`
    // the thread started outside the tunnel: its option's '->->' has nothing to return to
    const side = await one(story, ['side@1.1'])
    expect(side.lines.slice(-3)).toEqual([
      '#0 paragraph "Side chosen."',
      '! story/tunnel-return 10:3',
      '-- end',
    ])
    const inner = await one(story, ['1'])
    expect(inner.lines.slice(-2)).toEqual(['> 1', '-- end'])
  })

  it("adds nothing when a thread gathers the pause's own group, and does not run itself again", async () => {
    const story = '# [#here]\n<- #here\n* Once\n  Done.\n  -> #here'
    const { lines } = await one(story, ['1'])
    expect(lines).toEqual([
      '== part a.sty',
      '? [a.sty:here@1] 1 "Once"',
      '> 1',
      // a 1.1 paragraph is held until the next text shows whether glue continues it, so the
      // group's diagnostic comes before it (README, "Glue and mid-line jumps": event order)
      '! story/exhausted-group',
      '#0 paragraph "Done."',
      '-- end',
    ])
  })

  it("renders a thread option's label when the thread runs, as ink builds a choice's text", async () => {
    const story = '{set n = 1}\n<- #t\n{set n = 2}\n* Own ${n}\n-> END\n# [#t]\n* Thread ${n}\n-> END'
    const { lines } = await one(story)
    expect(lines[1]).toBe('? [a.sty:h0@1] 1 "Own 2" | t@1.1 "Thread 1"')
  })

  it('ignores a thread that reaches no group', async () => {
    const { lines } = await one('<- #t\n* Go\n  Went.\n-> END\n# [#t]\nT text.\n-> END')
    expect(lines.slice(1, 3)).toEqual(['#0 paragraph "T text."', '? [a.sty:h0@1] 1 "Go"'])
  })

  it('resumes at a pause a thread joined, and after a thread option was chosen', async () => {
    await expectResumes(HUB, [[], ['o.ask'], ['o.ask', '1']])
  })
})

describe("'-> DONE'", () => {
  const HUB = `-> #hub
# [#talk]
[#t]
* Ask [#ask]
  Asked.
  -> #hub
+ Bye [#bye]
  -> END
# [#hub]
<- #talk
<- #look
-> DONE
# [#look]
The room is dark. -> DONE
# [#after]
Never shown.`

  it('pauses on the options threads gathered, where it stands, and a thread ends at it', async () => {
    const { lines } = await one(HUB, ['t.ask', 't.bye'])
    expect(lines).toEqual([
      '== part a.sty',
      '#0 paragraph "The room is dark."',
      '? [a.sty:@done] t.ask "Ask" | t.bye "Bye"',
      '> ask',
      '#1 paragraph "Asked."',
      '#2 paragraph "The room is dark."',
      '? [a.sty:@done] t.bye "Bye"',
      '> bye',
      '-- end',
    ])
  })

  it('ends the story when nothing was gathered, and does not fall into the next section', async () => {
    const { lines } = await one('Alone. -> DONE\n# [#next]\nNext.')
    expect(lines).toEqual(['== part a.sty', '#0 paragraph "Alone."', '-- end'])
  })

  it('resumes at its pause and after a choice there', async () => {
    await expectResumes(HUB, [[], ['t.ask'], ['t.ask', 't.bye']])
  })

  it("is an option's jump too; the pause's thread options went with the choice, as in ink", async () => {
    const story = '<- #t\n* Wait -> DONE\n# [#t]\n+ Go [#go]\n  Gone.\n  -> END'
    const { lines } = await one(story, ['1'])
    expect(lines).toEqual(['== part a.sty', '? [a.sty:h0@1] 1 "Wait" | t@1.go "Go"', '> 1', '-- end'])
    const hub = await one(
      `<- #t\n* Wait\n  Waiting.\n  <- #t\n  -> DONE\n# [#t]\n+ Go [#go]\n  Gone.\n  -> END`,
      ['1', 't@1.go'],
    )
    expect(hub.lines.slice(3)).toEqual([
      '#0 paragraph "Waiting."',
      '? [a.sty:@done] t@1.go "Go"',
      '> go',
      '#1 paragraph "Gone."',
      '-- end',
    ])
  })

  it('is 1.1: a 1.0 story gets an error that says so', async () => {
    const { lines } = await play(memorySource({ 'a.sty': 'Text.\n-> DONE' }), [], { seed: 1 })
    expect(lines).toEqual(['== part a.sty', '! story/bad-expression 2:4', '#0 paragraph "Text."', '-- end'])
  })
})

describe('1.0 reads the same text as before', () => {
  it('a tunnel line is a bad jump and a thread line is text (the check warns: parse/traps.test.ts)', async () => {
    const { lines } = await play(memorySource({ 'a.sty': '<- #t\n-> #t ->\n->->\n[#t]' }), [], { seed: 1 })
    expect(lines).toEqual([
      '== part a.sty',
      '! story/bad-expression 2:1',
      '! story/bad-expression 3:1',
      '#0 paragraph "<-" [t]',
      '-- end',
    ])
  })
})

/** A hub with tunnels (nested, into another part) and threads (one inside a tunnel). */
const HUB_STORY = `{set n = 0}
# Hub [#hub]
{set n += 1}
Round \${n}.
-> #shop ->
<- #talk
<- #look
[#act]
* Rest
  -> side.sty:nap ->
  Rested.
+ {if n > 3} Leave -> END
+ Again -> #hub
# Shop [#shop]
The shop.
[#buy]
* Buy bread
  Bread.
+ Browse
  -> #deep ->
  Browsed.
->->
# Deep [#deep]
Deeper.
<- #look
* Climb out
->->
# Talk [#talk]
Someone talks.
[#chat]
* Ask about the road [#road]
  "North."
  -> #hub
+ Small talk
  Weather.
Talk ends.
-> #hub
# Look [#look]
[#around]
+ Look around \${d6}
  Nothing.
  -> #hub
`
const SIDE = `Side part.
## Nap [#nap]
You nap.
* Dream
  A dream.
+ Wake
->->
`
const hubSource = () =>
  v11({ 'story/a.sty': HUB_STORY, 'story/side.sty': SIDE }, ['story/a.sty', 'story/side.sty'])

async function walk(run: StoryRun, picks: number[], from: number, stopAt: number): Promise<StoryEvent[]> {
  const events: StoryEvent[] = []
  let i = from
  for (let e = await run.next(); e; e = await run.next()) {
    events.push(e)
    if (e.type !== 'pause' || e.replay) continue
    if (i >= stopAt || i >= picks.length) break
    run.choose({ option: e.options[picks[i++]! % e.options.length]!.id })
  }
  return events
}

describe('resume by replay in tunnels and threads', () => {
  test.prop([fc.array(fc.nat(20), { minLength: 1, maxLength: 30 }), fc.nat(0xffffffff), fc.nat(30)], {
    numRuns: 80,
  })('continues exactly like an uninterrupted reading', async (picks, seed, cut) => {
    const k = cut % (picks.length + 1)
    const whole = createStoryRun(hubSource(), { seed })
    const all = await walk(whole, picks, 0, picks.length)
    const first = createStoryRun(hubSource(), { seed })
    await walk(first, picks, 0, k)
    if (first.ended) return
    const parsed = parseReadingState(JSON.parse(JSON.stringify(first.saveState())), { storyId: 'test-story' })
    expect(parsed.diagnostics).toEqual([])
    const { run, diagnostics } = await resumeStoryRun(hubSource(), parsed.state!)
    expect(diagnostics).toEqual([])
    const rest = await walk(run, picks, k, picks.length)
    expect(live(rest)).toEqual(fromPause(all, k + 1))
    expect(run.saveState()).toEqual(whole.saveState())
  })
})

describe('the hub story exercises what the property checks', () => {
  it('saves states with open tunnels and with choices taken on threads', async () => {
    let tunnels = 0
    let threads = 0
    for (let seed = 0; seed < 40; seed++) {
      const picks = Array.from({ length: 12 }, (_, i) => (seed * 7 + i * 3) % 5)
      for (let k = 1; k < picks.length; k++) {
        const run = createStoryRun(hubSource(), { seed })
        await walk(run, picks, 0, k)
        const s = run.saveState()
        if (s.tunnels?.length) tunnels++
        if (Object.values(s.choices).some((l) => l.some((c) => c.startsWith('<')))) threads++
      }
    }
    expect(tunnels).toBeGreaterThan(20)
    expect(threads).toBeGreaterThan(20)
  })
})
