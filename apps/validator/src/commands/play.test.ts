import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fc, test } from '@fast-check/vitest'
import { buildPackage, zipWithTool } from '@spkg/test-utils'
import { afterAll, describe, expect, it } from 'vitest'
import { jsonLines, runCli } from '../../test/helpers/cli'
import { E1, E2, E3, E4, E5, E6, E8 } from '../../test/helpers/worked-examples'

const root = mkdtempSync(join(tmpdir(), 'spkg-play-'))
afterAll(() => {})

let n = 0
/** Writes a story folder (path → text) and returns its directory. */
function folder(files: Record<string, string>): string {
  const dir = join(root, `s${++n}`)
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true })
    writeFileSync(join(dir, p), text)
  }
  return dir
}

/** Writes one `.sty` file and returns its path. */
function styFile(name: string, text: string): string {
  return join(folder({ [name]: text }), name)
}

type Json = Record<string, unknown>
const lines = jsonLines

/** The JSON event stream in the notation of STORY-LANGUAGE.md §11. */
function transcript(stdout: string): string[] {
  const out: string[] = []
  for (const e of lines(stdout)) {
    const tags = (t: unknown) => ((t as string[]).length ? ` [${(t as string[]).join(' ')}]` : '')
    switch (e.type) {
      case 'part-entered':
        out.push(`== part ${e.part}${e.scene ? `:${e.scene}` : ''}${tags(e.tags)}`)
        break
      case 'block':
        out.push(
          e.kind === 'media'
            ? `#${e.index} media ${e.media} ${e.path} alt=${JSON.stringify(e.text)}${tags(e.tags)}`
            : `#${e.index} ${e.kind}${e.level ?? ''} ${JSON.stringify(e.text)}${tags(e.tags)}`,
        )
        break
      case 'pause': {
        const opts = (e.options as Json[]).map((o) => `${o.id} ${JSON.stringify(o.text)}`)
        const links = (e.links as Json[]).map((l) => `link ${JSON.stringify(l.text)} → ${l.target}`)
        out.push(`? [${e.key}] ${[...opts, ...links].join(' | ')}`)
        break
      }
      case 'chosen':
        out.push(e.auto ? `(auto) ${e.option}` : `> ${e.option}`)
        break
      case 'diagnostic':
        out.push(`!! ${e.path}:${e.line}:${e.column} ${e.severity} ${e.code}`)
        break
      case 'end':
        out.push('-- end')
        break
    }
  }
  return out
}

/** A transcript written out as §11 prints it, one event a line (a leading line break is for layout). */
const events = (text: string) => text.trim().split('\n')

const play = (args: string[], options: Parameters<typeof runCli>[1] = {}) =>
  runCli(['play', ...args], { cwd: root, ...options })
const saved = (file: string) => JSON.parse(readFileSync(join(root, file), 'utf8'))

describe('spkg play: the worked examples of STORY-LANGUAGE.md §11 from the command line', () => {
  it('E1: blocks, tags, defaults and session values', async () => {
    const r = await play([folder(E1), '--format', 'json'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(transcript(r.stdout)).toEqual(
      events(`
== part story/inn.sty [theme:night]
#0 heading1 "The Crooked Inn"
#1 paragraph "Welcome, Mira. The fire is almost out.\\nYou carry 5 coins, which will not last." [mood:cold]
#2 media image assets/inn.webp alt="The common room" [fullscreen]
#3 paragraph "Half goes on a room; 2.5 left."
-- end`),
    )
  })

  // The transcript after the part line, and the saved state it ends in.
  it.each([
    {
      example: 'E2: once-only options, a fallback and visit counts',
      story: () => styFile('platform.sty', E2),
      choose: '1,1',
      state: {
        choices: { 'platform.sty:search@1': ['1', '2', '3'] },
        variables: { 'platform.sty:search@visits': 3 },
      },
      expected: `
#0 heading1 "Platform 9"
#1 paragraph "You search for a friendly face."
? [platform.sty:search@1] 1 "The woman in the hat" | 2 "The man with the briefcase"
> 1
#2 paragraph "She pushes you aside."
#3 paragraph "You search for a friendly face. Attempt 2."
? [platform.sty:search@1] 2 "The man with the briefcase"
> 2
#4 paragraph "You search for a friendly face. Attempt 3."
(auto) 3
#5 paragraph "You collapse onto the platform."
-- end`,
    },
    {
      example: 'E3: guards, sticky options, explicit ids and a local',
      story: () => folder({ 'bar.sty': E3, 'session.json': '{"gold": 1}' }),
      // Menu numbers, as the prompt reads them: after `map`, "Just listen" [3] is 1) and "Leave" [4] is 2).
      choose: 'map,1,2',
      state: { choices: { 'bar.sty:talk': ['map', '3', '4'] }, variables: { 'bar.sty:bar.asked': 1 } },
      expected: `
#0 heading1 "The Bar"
#1 paragraph "The barkeep polishes a glass."
? [bar.sty:talk] map "Ask about the map" | 3 "Just listen" | 4 "Leave"
> map
#2 paragraph "\\"Lost it at cards,\\" she says."
#3 paragraph "She turns away."
? [bar.sty:talk] 3 "Just listen" | 4 "Leave"
> 3
#4 paragraph "She hums. She keeps glancing at you."
#5 paragraph "She turns away."
? [bar.sty:talk] 3 "Just listen" | 4 "Leave"
> 4
-- end`,
    },
  ])('$example', async ({ example, story, choose, state, expected }) => {
    const file = `${example.slice(0, 2).toLowerCase()}.json`
    const r = await play([story(), '--choose', choose, '--format', 'json', '--save', file])
    expect(r.code).toBe(0)
    expect(transcript(r.stdout).slice(1)).toEqual(events(expected))
    const { choices, variables } = saved(file)
    expect(choices).toEqual(state.choices)
    expect(variables).toMatchObject(state.variables)
  })

  it('E4: rolls with seed 42, bit for bit', async () => {
    const r = await play([styFile('dice.sty', E4), '--format', 'json', '--save', 'e4.json'])
    expect(transcript(r.stdout).slice(1)).toEqual(
      events(`
#0 paragraph "You swing and roll 7."
#1 paragraph "86 damage."
#2 paragraph "The troll grabs a club."
-- end`),
    )
    expect(saved('e4.json').rng).toEqual({ algorithm: 'mulberry32', seed: 42, state: 567894515 })
  })

  it('E5: a gate, links, a scene anchor and the saved state of §9', async () => {
    const r = await play([
      folder(E5),
      '--seed',
      '7',
      '--choose',
      '>story/0003-forest.sty:edge',
      '--format',
      'json',
      '--save',
      'e5.json',
    ])
    expect(r.code).toBe(0)
    expect(transcript(r.stdout)).toEqual(
      events(`
== part story/0001-inn.sty
#0 paragraph "Dawn. You settle your bill."
== part story/0002-road.sty
#0 heading1 "The Road"
#1 paragraph "The road forks: the forest path or the river road."
? [story/0002-road.sty:@end] link "forest path" → story/0003-forest.sty:edge | link "river road" → story/0003-forest.sty
> >story/0003-forest.sty:edge
== part story/0003-forest.sty:edge
#0 heading2 "Forest Edge"
#1 paragraph "2 wolves watch you. You have 2 coins."
? [story/0003-forest.sty:edge@1] 1 "Run"`),
    )
    const road = lines(r.stdout).find((e) => e.type === 'block' && e.index === 1 && e.links)
    expect(road?.links).toHaveLength(2)
    expect(saved('e5.json')).toMatchObject({
      format: 1,
      variables: {
        gold: 2,
        wolves: 2,
        'story/0003-forest.sty:edge@visits': 1,
        'story/0002-road.sty:road@visits': 1,
      },
      choices: { 'story/0002-road.sty:@end': ['>story/0003-forest.sty:edge'] },
      visitedChoiceGroups: ['story/0002-road.sty:@end', 'story/0003-forest.sty:edge@1'],
      rng: { algorithm: 'mulberry32', seed: 7, state: 7 },
      currentPart: 'story/0003-forest.sty',
      visitedParts: ['story/0001-inn.sty', 'story/0002-road.sty'],
      renderedParagraph: 1,
    })
  })

  it('E6: a module with constants, functions and a passage', async () => {
    const r = await play([join(folder(E6), 'duel.sty'), '--format', 'json'])
    expect(r.code).toBe(0)
    expect(transcript(r.stdout).slice(1)).toEqual(
      events(`
#0 paragraph "The duel begins."
#1 paragraph "You: [10/10]"
#2 paragraph "You: [7/10]"
#3 paragraph "You: [3/10] (bleeding)"
-- end`),
    )
  })

  it('E7: resumes after a text edit, replaying the scroll-back with the new text', async () => {
    const dir = folder({ 'bar.sty': E3, 'session.json': '{"gold": 1}' })
    const first = await play([dir, '--choose', 'map', '--format', 'json', '--save', 'e7.json'])
    expect(first.code).toBe(0)
    expect(saved('e7.json')).toMatchObject({ choices: { 'bar.sty:talk': ['map'] }, renderedParagraph: 3 })
    writeFileSync(join(dir, 'bar.sty'), E3.replace('She turns away.', 'She turns away, smiling.'))
    const r = await play([dir, '--resume', 'e7.json', '--choose', '1', '--format', 'json'])
    expect(r.code).toBe(0)
    const stream = lines(r.stdout)
    const replayed = stream.filter((e) => e.replay && e.type === 'block')
    expect(replayed.map((e) => [e.index, e.text, e.seen])).toEqual([
      [0, 'The Bar', true],
      [1, 'The barkeep polishes a glass.', true],
      [2, '"Lost it at cards," she says.', true],
      [3, 'She turns away, smiling.', true],
    ])
    expect(stream.some((e) => e.code === 'story/resume-diverged')).toBe(false)
    expect(
      transcript(
        r.stdout
          .split('\n')
          .filter((l) => !l.includes('"replay":true'))
          .join('\n'),
      ),
    ).toEqual(
      events(`
? [bar.sty:talk] 3 "Just listen" | 4 "Leave"
> 3
#4 paragraph "She hums. She keeps glancing at you."
#5 paragraph "She turns away, smiling."
? [bar.sty:talk] 3 "Just listen" | 4 "Leave"`),
    )
  })

  it('E8: reports the parse errors of the part it plays, with line and column', async () => {
    const r = await play([styFile('bad.sty', E8), '--format', 'json'])
    expect(r.code).toBe(1)
    const diagnostics = lines(r.stdout)
      .filter((e) => e.type === 'diagnostic')
      .map((e) => `${e.line}:${e.column} ${e.severity} ${e.code}`)
    expect(diagnostics).toEqual(
      expect.arrayContaining([
        '1:1 error story/unclosed-brace',
        '3:13 error story/bad-expression',
        '4:4 error story/unknown-id',
        '5:4 error story/bad-target',
        '6:10 error story/duplicate-id',
        '7:1 error story/unclosed-interpolation',
      ]),
    )
  })
})

describe('spkg play in the terminal', () => {
  it('prints a readable transcript and stops at the first unanswered pause', async () => {
    const r = await play([styFile('platform.sty', E2), '--choose', '1'])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(
      [
        '== platform.sty',
        '# Platform 9',
        'You search for a friendly face.',
        '  1) The woman in the hat  [1]',
        '  2) The man with the briefcase  [2]',
        '> The woman in the hat',
        'She pushes you aside.',
        'You search for a friendly face. Attempt 2.',
        '  1) The man with the briefcase  [2]',
        '',
      ].join('\n'),
    )
    expect(r.stderr).toBe('spkg play: stopped at the unanswered pause platform.sty:search@1\n')
  })

  it('colours headings, styles and links on a TTY', async () => {
    const r = await play([folder(E5), '--choose', ''], { tty: true })
    expect(r.stdout).toContain('\x1b[1m# The Road\x1b[22m')
    expect(r.stdout).toContain('\x1b[36m\x1b[4mforest path\x1b[24m\x1b[39m')
    const plain = await play([folder(E5), '--choose', ''], { tty: true, env: { NO_COLOR: '1' } })
    expect(plain.stdout).not.toContain('\x1b[')
  })

  it('asks at each pause on standard input: a menu number, an option id or >target', async () => {
    const r = await play([styFile('platform.sty', E2)], { stdin: '7\n1\n1\n' })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('? no choice 7; pick 1-2\n? > The woman in the hat')
    // The second pause offers only option 2, listed as menu number 1.
    expect(r.stdout).toContain('> The man with the briefcase')
    expect(r.stdout.trim().endsWith('-- end')).toBe(true)

    const links = await play([folder(E5)], { stdin: '>story/0003-forest.sty\n' })
    expect(links.stdout).toContain('== story/0003-forest.sty\nTrees close in.')
    // End of input at the next pause stops play.
    // ...and closes the prompt's line, so nothing after it is glued to '? '.
    expect(links.stdout.endsWith('  1) Run  [1]\n? \n')).toBe(true)
    expect(links.code).toBe(0)
  })

  it('refuses an answer the pause does not offer (exit 1), names it, and prints the menu once', async () => {
    const r = await play([styFile('platform.sty', E2), '--choose', '1,2'])
    expect(r.code).toBe(1)
    // ...and says what the pause does accept (menu numbers, named option ids, links as >target).
    expect(r.stderr).toContain(
      "spkg play: the answer '2' was refused at the pause platform.sty:search@1; it accepts 1 (the menu number), an option id (=2)\n",
    )
    // '=2' names the option whose id is 2 (menu number 1 there): the story goes on to its end.
    const named = await play([styFile('platform.sty', E2), '--choose', '1,=2'])
    expect(named.code).toBe(0)
    expect(named.stdout).toContain('> The man with the briefcase')
    expect(named.stdout.trim().endsWith('-- end')).toBe(true)
    expect(r.stderr).toContain('error story/invalid-choice')
    expect(r.stdout.match(/1\) The man with the briefcase/g)).toHaveLength(1)
    const byId = await play([styFile('platform.sty', E2), '--choose', '1,nope', '--format', 'json'])
    expect(byId.code).toBe(1)
    expect(lines(byId.stdout).filter((e) => e.type === 'pause')).toHaveLength(2)
    expect(lines(byId.stdout).at(-1)).toMatchObject({ type: 'diagnostic', code: 'story/invalid-choice' })
  })

  it('takes the numbers the menu shows in --choose, for options and links, as the prompt does', async () => {
    const links = await play([folder(E5), '--seed', '7', '--choose', '1,1'])
    expect(links.code).toBe(0)
    // Menu 1) of the road is the forest link; menu 1) at the edge is the option "Run".
    expect(links.stdout).toContain(
      '  2) → river road  [>story/0003-forest.sty]\n> → forest path\n== story/0003-forest.sty:edge\n',
    )
    expect(links.stdout).toMatch(/ {2}1\) Run {2}\[1\]\n> Run\n-- end\n$/)
    const river = await play([folder(E5), '--choose', '2', '--format', 'json'])
    expect(transcript(river.stdout)).toContain('> >story/0003-forest.sty')
    // The second pause of E2 offers only option [2], shown as 1): the prompt and --choose agree.
    const typed = await play([styFile('platform.sty', E2)], { stdin: '1\n1\n' })
    const listed = await play([styFile('platform.sty', E2), '--choose', '1,1'])
    expect(listed.stdout).toBe(typed.stdout.replaceAll('? ', ''))
  })

  it('plays a .spkg archive through @spkg/reader', async () => {
    const file = join(root, 'road.spkg')
    writeFileSync(
      file,
      buildPackage({
        parts: {
          'story/0001-inn.sty': E5['story/0001-inn.sty']!,
          'story/0002-road.sty': E5['story/0002-road.sty']!,
          'story/0003-forest.sty': E5['story/0003-forest.sty']!,
        },
      }),
    )
    const r = await play([file, '--seed', '7', '--choose', '>story/0003-forest.sty:edge', '--format', 'json'])
    expect(r.code).toBe(0)
    expect(transcript(r.stdout).at(-1)).toBe('? [story/0003-forest.sty:edge@1] 1 "Run"')
  })

  it('plays an archive made by the real zip tool, with its session.json', async () => {
    const file = join(root, 'bar.spkg')
    writeFileSync(
      file,
      zipWithTool('zip', {
        'manifest.json': JSON.stringify({
          id: '6f1c2a9e-0b7d-4c1e-9a53-2d8e4f6b7a10',
          parts: ['story/bar.sty'],
        }),
        'session.json': '{"gold": 5}',
        'story/bar.sty': E3,
      }),
    )
    const r = await play([file, '--choose', '2,3', '--format', 'json', '--save', 'zip.json'])
    expect(r.code).toBe(0)
    expect(transcript(r.stdout).filter((l) => l.startsWith('?'))).toEqual([
      '? [story/bar.sty:talk] map "Ask about the map" | 2 "Buy a drink" | 3 "Just listen" | 4 "Leave"',
      '? [story/bar.sty:talk] map "Ask about the map" | 3 "Just listen" | 4 "Leave"',
    ])
    expect(saved('zip.json').variables.gold).toBe(3)
  })

  it('takes session values from --session instead of the story’s session.json', async () => {
    const bar = folder({ 'bar.sty': E3, 'session.json': '{"gold": 1}', 'rich.json': '{"gold": 5}' })
    const r = await play([bar, '--session', join(bar, 'rich.json'), '--format', 'json'])
    const pause = lines(r.stdout).find((e) => e.type === 'pause')
    expect((pause?.options as Json[] | undefined)?.map((o) => o.id)).toEqual(['map', '2', '3', '4'])
    const bad = await play([bar, '--session', join(bar, 'bar.sty')])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('session/not-json')
  })

  it('resumes exactly what --save wrote: saving again right away gives the same state', async () => {
    const dir = folder(E5)
    await play([dir, '--seed', '7', '--choose', '>story/0003-forest.sty:edge', '--save', 'r1.json'])
    const r = await play([dir, '--resume', 'r1.json', '--save', 'r2.json'])
    expect(r.code).toBe(0)
    const { savedAt: _a, ...first } = saved('r1.json')
    const { savedAt: _b, ...second } = saved('r2.json')
    expect(second).toEqual(first)
    const done = await play([dir, '--resume', 'r2.json', '--choose', '1', '--format', 'json'])
    expect(transcript(done.stdout).slice(-2)).toEqual(['> 1', '-- end'])
    const text = await play([dir, '--resume', 'r2.json', '--choose', '1'])
    // The scroll-back is marked at both ends, also without colours.
    expect(text.stdout.startsWith('-- replay --\n== story/0001-inn.sty\n')).toBe(true)
    expect(text.stdout).toContain(
      '2 wolves watch you. You have 2 coins.\n-- resumed --\n  1) Run  [1]\n> Run\n-- end\n',
    )
    expect(text.stdout.match(/-- replay --/g)).toHaveLength(1)
  })

  it('says each finding once: before play, not again in a replay or a random walk', async () => {
    // A runtime finding (1/0), and a static one the run meets again when it enters the part.
    const story = `# Hall\n{frobnicate}\n{set n = 0}\nOdd \${1 / n}.\n* Go\n  Gone.\n* Stay\n  Stayed.\n-> END\n`
    const file = styFile('once.sty', story)
    const first = await play([file, '--save', 's.json'])
    const once = (text: string, what: string) => text.split(what).length - 1
    expect(once(first.stderr, 'story/unknown-command')).toBe(1)
    expect(once(first.stderr, 'story/division-by-zero')).toBe(1)
    const resumed = await play([file, '--resume', 's.json', '--choose', '1'])
    expect(once(resumed.stderr, 'story/unknown-command')).toBe(1)
    // Said when it happened; the replay does not say it again.
    expect(once(resumed.stderr, 'story/division-by-zero')).toBe(0)
    const walk = await play([file, '--random-walk', '3'])
    expect(once(walk.stderr + walk.stdout, 'story/unknown-command')).toBe(1)
    expect(once(walk.stdout, 'story/division-by-zero')).toBe(1)
    const json = JSON.parse((await play([file, '--random-walk', '3', '--format', 'json'])).stdout)
    expect(json.staticDiagnostics.map((d: Json) => d.code)).toContain('story/unknown-command')
    expect(json.diagnostics.map((d: Json) => d.code)).not.toContain('story/unknown-command')
  })

  it('refuses a corrupt or foreign state with its state/ code (exit 1)', async () => {
    const dir = folder(E5)
    writeFileSync(join(root, 'corrupt.json'), '{"format":1,')
    const corrupt = await play([dir, '--resume', 'corrupt.json'])
    expect(corrupt.code).toBe(1)
    expect(corrupt.stderr).toContain('state/not-json')
    await play([styFile('platform.sty', E2), '--choose', '1', '--save', 'other.json'])
    const foreign = await play([dir, '--resume', 'other.json', '--format', 'json'])
    expect(foreign.code).toBe(1)
    expect(lines(foreign.stdout).map((e) => e.code)).toContain('state/other-story')
  })

  it.each([
    [['--seed', 'x7'], '--seed must be an integer from 0 to 4294967295'],
    [['--seed', '4294967296'], '--seed must be an integer from 0 to 4294967295'],
    [['--random-walk', '3', '--choose', '1'], '--random-walk cannot be combined with --choose'],
    [['--random-walk', '0'], '--random-walk must be an integer from 1 to'],
    [['--format', 'yaml'], '--format must be one of text, json'],
    [['--resume', 'x.json', '--seed', '1'], '--resume continues the saved rolls'],
    [['--resume', 'x.json', '--session', 's.json'], '--resume restores the saved session'],
    [['--choose', '1,,2'], "--choose item 2 ('') is not a menu number"],
  ])('refuses %j as a usage error (exit 2)', async (args, message) => {
    const r = await play([styFile('platform.sty', E2), ...args])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(message)
  })

  it('fails with one clear line for a missing path (exit 2)', async () => {
    const r = await play(['no-such-story'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("cannot read '")
  })

  it('refuses a path that is neither a file nor a folder (a device) with one clear line (exit 2)', async () => {
    const r = await play(['/dev/null'])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe("spkg play: cannot read '/dev/null': not a story file, package or folder\n")
  })
})

describe('spkg play --random-walk', () => {
  const maze = `# Maze [#maze]
{set coins = 0}
[#hub]
* Left
  {set coins += 1}
  -> #hub
* Right -> #treasure
* {if coins > 5} Secret door -> END
+ Divide
  \${10 / coins}
  -> END
## Treasure [#treasure]
You find the treasure.
-> END
## Vault [#vault]
Dust.
-> END
`

  it('reports endings, options never offered, runtime diagnostics and the longest path', async () => {
    const r = await play([
      styFile('maze.sty', maze),
      '--random-walk',
      '200',
      '--seed',
      '7',
      '--format',
      'json',
    ])
    const report = JSON.parse(r.stdout)
    expect(report.walks).toBe(200)
    expect(report.unfinished).toEqual([])
    const endings = report.endings.map((e: Json) => `${e.section} ${e.text}`).sort()
    expect(endings).toEqual(expect.arrayContaining(['treasure You find the treasure.']))
    expect(report.endings.reduce((s: number, e: Json) => s + (e.count as number), 0)).toBe(200)
    expect(report.neverOffered.map((o: Json) => `${o.key} ${o.id} ${o.line}`)).toEqual(['maze.sty:hub 3 8'])
    expect(report.diagnostics.map((d: Json) => d.code)).toContain('story/division-by-zero')
    expect(report.sectionsNeverReached.map((x: Json) => `${x.key} ${x.line}`)).toEqual([
      'maze.sty:vault@visits 15',
    ])
    expect(r.code).toBe(1)
    expect(report.longest.choices).toBeGreaterThan(1)
    // The longest path replays exactly with the command the report gives.
    const replay = await play([
      styFile('maze.sty', maze),
      '--seed',
      String(report.longest.seed),
      '--choose',
      report.longest.choose.join(','),
      '--format',
      'json',
    ])
    expect(lines(replay.stdout).filter((e) => e.type === 'chosen' && !e.auto)).toHaveLength(
      report.longest.choices,
    )
    expect(lines(replay.stdout).at(-1)?.type).toBe('end')
  })

  it('is reproducible from its seed and readable as text', async () => {
    const path = styFile('maze.sty', maze)
    const a = await play([path, '--random-walk', '50', '--seed', '3'])
    const b = await play([path, '--random-walk', '50', '--seed', '3'])
    expect(a.stdout).toBe(b.stdout)
    expect(a.stdout).toContain('random walk: 50 playthroughs from seed 3; 50 reached an end')
    expect(a.stdout).toContain('options never offered (1):')
    expect(a.stdout).toContain('sections never reached (1):\n  maze.sty:15:1  #vault "Vault"')
    expect(a.stdout).toMatch(
      /longest path: \d+ choices, \d+ blocks \(seed \d+\)\n {2}spkg play .*maze\.sty --seed \d+ --choose '/,
    )
  })

  it('with --explore tries every answer before repeating one', async () => {
    const doors = ['# Hall [#hall]', ...[1, 2, 3, 4, 5, 6].map((i) => `* Door ${i} -> #d${i}`)]
    for (const i of [1, 2, 3, 4, 5, 6]) doors.push(`## Room ${i} [#d${i}]`, `Room ${i}.`, '-> END')
    const path = styFile('doors.sty', `${doors.join('\n')}\n`)
    const r = await play([path, '--random-walk', '6', '--seed', '9', '--explore', '--format', 'json'])
    const report = JSON.parse(r.stdout)
    expect(report.endings.map((e: Json) => e.section).sort()).toEqual(['d1', 'd2', 'd3', 'd4', 'd5', 'd6'])
    expect(report.sectionsNeverReached).toEqual([])
    const usage = await play([path, '--explore'])
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain('--explore needs --random-walk')
  })

  it('groups endings by the -> END reached, the ways into each listed apart', async () => {
    // 4 -> END lines, each after a group of 7 options that all fall through to it (28 ways in).
    const lines = ['# Start [#start]', ...['a', 'b', 'c', 'd'].map((x) => `* Road ${x} -> #${x}`)]
    for (const x of ['a', 'b', 'c', 'd']) {
      lines.push(`## Road ${x} [#${x}]`, `[#g${x}]`)
      for (let i = 1; i <= 7; i++) lines.push(`* Step ${i} [#s${i}]`, `  You take step ${i}.`)
      lines.push(`You reach the end of road ${x}.`, '-> END')
    }
    const path = styFile('roads.sty', `${lines.join('\n')}\n`)
    const r = await play([path, '--random-walk', '400', '--seed', '1', '--explore', '--format', 'json'])
    const report = JSON.parse(r.stdout)
    expect(report.endings.map((e: Json) => `${e.section} ${JSON.stringify(e.at)}`).sort()).toEqual([
      'a [{"line":23,"column":4}]',
      'b [{"line":41,"column":4}]',
      'c [{"line":59,"column":4}]',
      'd [{"line":77,"column":4}]',
    ])
    expect(report.endings.reduce((n: number, e: Json) => n + (e.count as number), 0)).toBe(400)
    const paths = report.endings.flatMap((e: Json) => e.paths as Json[])
    expect(paths).toHaveLength(28)
    expect(paths.reduce((n: number, p: Json) => n + (p.count as number), 0)).toBe(400)
    const text = await play([path, '--random-walk', '400', '--seed', '1', '--explore'])
    expect(text.stdout).toContain('endings reached (4):\n')
    expect(text.stdout).toMatch(/ {2}roads\.sty:23:4 in #a {2}"You reach the end of road a\."\n/)
    expect(text.stdout).toContain('paths into the endings (28, by the option chosen last before the end):\n')
    expect(text.stdout).toMatch(/ {2}roads\.sty:23:4 {2}after option s7 of ga\n/)
  })

  it('follows links across parts in a packaged story', async () => {
    const r = await play([folder(E5), '--random-walk', '2', '--explore', '--format', 'json'])
    const report = JSON.parse(r.stdout)
    expect(r.code).toBe(0)
    expect(report.endings).toEqual([
      {
        part: 'story/0003-forest.sty',
        section: 'edge',
        at: [{ line: 5, column: 10 }],
        text: '2 wolves watch you. You have 2 coins.',
        count: 2,
        paths: [{ after: { key: 'story/0003-forest.sty:edge@1', option: '1' }, count: 2 }],
      },
    ])
    expect(report.longest.choose).toHaveLength(2)
    expect(report.longest.choose[0]).toMatch(/^>story\/0003-forest\.sty(:edge)?$/)
    expect(report.neverOffered).toEqual([])
    expect(report.sectionsNeverReached).toEqual([])
  })

  it('stops walks caught in a loop at --max-choices and reports them unfinished', async () => {
    const loop = '# Loop [#loop]\n+ Again -> #loop\n+ Stay -> #loop\n'
    const r = await play([
      styFile('loop.sty', loop),
      '--random-walk',
      '3',
      '--max-choices',
      '20',
      '--format',
      'json',
    ])
    const report = JSON.parse(r.stdout)
    expect(report.unfinished).toEqual([
      { seed: 0, choices: 20, reason: 'max-choices' },
      { seed: 1, choices: 20, reason: 'max-choices' },
      { seed: 2, choices: 20, reason: 'max-choices' },
    ])
    expect(report.endings).toEqual([])
    expect(r.code).toBe(0)
  })
})

describe('spkg play --resume after an edit that breaks the replay', () => {
  it('reports story/resume-diverged once and re-enters the current part at its start', async () => {
    const dir = folder(E5)
    await play([dir, '--seed', '7', '--choose', '>story/0003-forest.sty:edge', '--save', 'div.json'])
    writeFileSync(
      join(dir, 'story/0002-road.sty'),
      E5['story/0002-road.sty']!.replace('0003-forest.sty:edge]', '0003-forest.sty]'),
    )
    const r = await play([dir, '--resume', 'div.json', '--format', 'json'], { stdin: '' })
    expect(r.code).toBe(0)
    expect(r.stderr).toBe('? \n')
    expect(transcript(r.stdout)).toEqual(
      events(`
!! undefined:undefined:undefined warning story/resume-diverged
== part story/0003-forest.sty
#0 paragraph "Trees close in."
#1 heading2 "Forest Edge"
#2 paragraph "2 wolves watch you. You have 2 coins."
? [story/0003-forest.sty:edge@1] 1 "Run"`),
    )
  })
})

describe('spkg play never crashes on arbitrary answers', () => {
  const bar = folder({ 'bar.sty': E3, 'session.json': '{"gold": 3}' })
  const answer = fc.oneof(
    fc.constantFrom('map', '1', '2', '3', '4', '5', 'nope', '>bar.sty', '>story/x.sty:edge'),
    fc.stringMatching(/^[a-z0-9]{1,6}$/),
  )
  test.prop([fc.array(answer, { maxLength: 8 })], { numRuns: 40 })(
    'answers either play on or are refused: exit 0 or 1, never an internal error',
    async (answers) => {
      const r = await play([bar, '--choose', answers.join(','), '--format', 'json'])
      expect([0, 1]).toContain(r.code)
      expect(r.stderr).not.toContain('internal error')
      for (const line of r.stdout.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow()
    },
  )
})
