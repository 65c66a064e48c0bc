/**
 * A 1.1 story with tunnels and threads as a user meets it: `spkg validate` warns about a tunnelled
 * section that runs off its part, `spkg play` plays and answers a thread's option by its id, the
 * random walk reaches the ending, and `spkg map` draws tunnel calls and threads as their own edges
 * with a legend.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'
import { freshDir, writeTree } from '../../test/helpers/tree'
import type { StoryMap } from './map-graph'

const story = () =>
  writeTree(freshDir(), {
    'manifest.json': JSON.stringify({
      id: '5b1c2f4e-9a1d-4c3b-8e5f-6a7b8c9d0e11',
      title: 'Tunnels',
      story_lang: '1.1',
      parts: ['story/a.sty', 'story/b.sty'],
    }),
    'story/a.sty': `# Market [#market]
-> #shop ->
<- #gossip
[#square]
* Rest [#rest]
  -> b.sty:dream ->
  Rested.
  -> #market
+ Leave -> END
# Shop [#shop]
The shop is open.
->->
# Gossip [#gossip]
[#rumours]
* Ask about the road [#road]
  "North," they say.
  -> #market
`,
    'story/b.sty': 'Never read.\n-> END\n## Dream [#dream]\nYou dream.\n',
  })

describe('tunnels and threads in the CLI', () => {
  it('spkg validate: the tunnelled section that runs off its part is a warning, at its heading', async () => {
    const r = await runCli(['validate', story()])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(
      "story/b.sty:3:1: warning story/tunnel-end: '#dream', entered by a tunnel (story/a.sty:6), can reach the end of the part without '->->' (play then returns there); end each way out with '->->'",
    )
  })

  it("spkg play: a thread's option follows the pause's own, answered by its '<group>.<option>' id", async () => {
    const r = await runCli(['play', story(), '--choose', 'rumours.road,rest'])
    expect(r.stdout).toBe(
      [
        '== story/a.sty',
        '# Market',
        '# Shop',
        'The shop is open.',
        '# Gossip',
        '  1) Rest  [rest]',
        '  2) Leave  [2]',
        '  3) Ask about the road  [rumours.road]',
        '> Ask about the road',
        '"North," they say.',
        '# Market',
        '# Shop',
        'The shop is open.',
        '# Gossip',
        '  1) Rest  [rest]',
        '  2) Leave  [2]',
        '> Rest',
        '== story/b.sty:dream',
        '## Dream',
        'You dream.',
        '== story/a.sty',
        'Rested.',
        '# Market',
        '# Shop',
        'The shop is open.',
        '# Gossip',
        '  1) Leave  [2]',
        '',
      ].join('\n'),
    )
  })

  it('spkg play --random-walk: every walk reaches the ending, and no option goes unoffered', async () => {
    const r = await runCli(['play', story(), '--random-walk', '20'])
    expect(r.stdout).toContain('20 reached an end')
    expect(r.stdout).toContain('story/a.sty:9:12')
    expect(r.stdout).toContain('options never offered (0)')
  })

  it('spkg map: tunnel calls and threads are edges of their own, with a legend', async () => {
    const dir = story()
    const cwd = freshDir()
    expect((await runCli(['map', dir, '-o', 'm.json'], { cwd })).code).toBe(0)
    const m = JSON.parse(readFileSync(join(cwd, 'm.json'), 'utf8')) as StoryMap
    expect(
      m.edges
        .filter((e) => e.kind === 'tunnel' || e.kind === 'thread')
        .map((e) => `${e.from} ${e.kind} ${e.to}`),
    ).toEqual([
      'S:story/a.sty:market tunnel S:story/a.sty:shop',
      'S:story/a.sty:market thread S:story/a.sty:gossip',
      'S:story/a.sty:market tunnel S:story/b.sty:dream',
    ])
    expect((await runCli(['map', dir, '-o', 'm.dot'], { cwd })).code).toBe(0)
    const dot = readFileSync(join(cwd, 'm.dot'), 'utf8')
    expect(dot).toContain('label="tunnel call (returns)"')
    expect(dot).toContain('label="thread (gathers options)"')
    expect(dot).toMatch(/id="edge:tunnel:S:story\/a\.sty:market->S:story\/a\.sty:shop", style="dashed,bold"/)
  })

  it("'-> DONE': play pauses there, random walks count no ending at it, the map draws no edge", async () => {
    const dir = writeTree(freshDir(), {
      'manifest.json': JSON.stringify({
        id: '5b1c2f4e-9a1d-4c3b-8e5f-6a7b8c9d0e12',
        title: 'Done',
        story_lang: '1.1',
        parts: ['story/a.sty'],
      }),
      'story/a.sty': `-> #hub
## [#talk]
[#t]
* Ask [#ask]
  Asked.
  -> #hub
+ Bye [#bye]
  -> END
## [#hub]
<- #talk
-> DONE
## [#after]
Never.
`,
    })
    const played = await runCli(['play', dir, '--choose', 't.ask,t.bye'])
    expect(played.stdout).toBe(
      [
        '== story/a.sty',
        '  1) Ask  [t.ask]',
        '  2) Bye  [t.bye]',
        '> Ask',
        'Asked.',
        '  1) Bye  [t.bye]',
        '> Bye',
        '-- end',
        '',
      ].join('\n'),
    )
    const walked = await runCli(['play', dir, '--random-walk', '10'])
    expect(walked.stdout).toContain('10 reached an end')
    expect(walked.stdout).toContain('story/a.sty:8:6 in #talk')
    expect(walked.stdout).not.toContain('story/a.sty:11:4')
    const cwd = freshDir()
    expect((await runCli(['map', dir, '-o', 'm.json'], { cwd })).code).toBe(0)
    const m = JSON.parse(readFileSync(join(cwd, 'm.json'), 'utf8')) as StoryMap
    expect(m.edges.filter((e) => e.from === 'S:story/a.sty:hub').map((e) => `${e.kind} ${e.to}`)).toEqual([
      'thread S:story/a.sty:talk',
    ])
  })
})
