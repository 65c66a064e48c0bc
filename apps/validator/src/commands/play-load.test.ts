// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/**
 * `spkg play` loads every input as the package `spkg pack` makes of it and reports what
 * `spkg validate` finds before play starts.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { jsonLines, runCli } from '../../test/helpers/cli'
import { freshDir, writeTree } from '../../test/helpers/tree'

type Json = Record<string, unknown>
const lines = jsonLines
const where = (e: Json) => `${e.path}:${e.line ?? '-'}:${e.column ?? '-'} ${e.severity} ${e.code}`
const ID = '6f1c2a8e-4b7d-4e39-9a51-2f0d3c8b7e14'

/** A draft with a gate to a missing part and a duplicate across modules. */
const draft = {
  'manifest.json': JSON.stringify({ id: ID, story_lang: '1.1', parts: ['story/0001-inn.sty'] }),
  'story/0001-inn.sty': '{use combat}\n# Inn\nDawn, ${hp} hp.\n[[ 0009-cellar.sty ]]\n',
  'extensions/combat.xty': '{const hp = 3}\n',
  'extensions/more.xty': '{const hp = 4}\n',
}

describe('spkg play reports what spkg validate finds, before play starts', () => {
  it('as diagnostic events ahead of the first story event, then plays on (exit 1)', async () => {
    const dir = writeTree(freshDir(), draft)
    const r = await runCli(['play', dir, '--format', 'json'])
    expect(r.code).toBe(1)
    const events = lines(r.stdout)
    const first = events.findIndex((e) => e.type !== 'diagnostic')
    const before = events.slice(0, first).map(where)
    expect(before).toEqual(
      expect.arrayContaining([
        'story/0001-inn.sty:4:4 error story/unknown-part',
        'extensions/more.xty:1:8 error story/duplicate-declaration',
      ]),
    )
    // Play went on: the part was entered and played up to the gate, which fails at run time.
    expect(events[first]).toMatchObject({ type: 'part-entered', part: 'story/0001-inn.sty' })
    expect(events.map((e) => e.type === 'block' && e.text)).toContain('Dawn, 3 hp.')
    expect(events.at(-1)).toMatchObject({ type: 'end' })
    // The same findings as spkg validate, which says more (infos, publishing checks).
    const v = JSON.parse((await runCli(['validate', dir, '--format', 'json'])).stdout)
    const validated = (v.diagnostics as Json[]).filter((d) => String(d.code).startsWith('story/')).map(where)
    const played = before.filter((d) => d.includes(' story/'))
    expect(played).toEqual(validated.filter((d) => !d.includes(' info ')))
  })

  it('in text on standard error, with a line saying play goes on', async () => {
    const dir = writeTree(freshDir(), draft)
    const r = await runCli(['play', dir])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(
      "story/0001-inn.sty:4:4: error story/unknown-part: no part 'story/0009-cellar.sty' in this package",
    )
    expect(r.stderr).toMatch(/has 2 errors \(above; 'spkg validate' says more\); playing on\n/)
    expect(r.stdout).toContain('Dawn, 3 hp.')
  })

  it('refuses a story in a language version it cannot read, saying so, and plays nothing', async () => {
    for (const storyLang of ['1.2', '2.0']) {
      const dir = writeTree(freshDir(), {
        ...draft,
        'manifest.json': JSON.stringify({ id: ID, story_lang: storyLang }),
      })
      const r = await runCli(['play', dir])
      expect(r.code).toBe(1)
      expect(r.stderr).toContain(`manifest.json: error story/lang-version: story_lang '${storyLang}'`)
      expect(r.stdout).not.toContain('Dawn')
    }
  })

  it('reports a part that is not UTF-8 as story/encoding with its line and column', async () => {
    const dir = writeTree(freshDir(), {
      'manifest.json': JSON.stringify({ id: ID }),
      'story/0001-inn.sty': '# Inn\nOn.\n[[ 0002-road.sty ]]\n',
      'story/0002-road.sty': new Uint8Array([...Buffer.from('# Road\nA r'), 0xff, 0x0a]),
    })
    const r = await runCli(['play', dir, '--format', 'json'])
    expect(r.code).toBe(1)
    expect(
      lines(r.stdout)
        .filter((e) => e.type === 'diagnostic')
        .map(where),
    ).toContain('story/0002-road.sty:2:4 error story/encoding')
    // Not a gate to a missing part: the part is there, its bytes are wrong.
    expect(r.stdout).not.toContain('story/unknown-part')
  })

  it('does not repeat at run time a finding reported before play', async () => {
    const dir = writeTree(freshDir(), { 'bad.sty': 'Hi.\n{set x = }\nBye.\n' })
    const r = await runCli(['play', join(dir, 'bad.sty'), '--format', 'json'])
    const found = lines(r.stdout).filter((e) => e.type === 'diagnostic' && e.code !== 'story/undeclared')
    expect(found.length).toBeGreaterThan(0)
    expect(new Set(found.map(where)).size).toBe(found.length)
  })
})

/** One story exercising what folder and package play used to differ on. */
const guide = {
  'manifest.json': JSON.stringify({
    id: ID,
    title: 'Guide',
    type: 'instruction',
    stories: ['inn'],
    requires: ['host'],
  }),
  'story/0001-guide.sty': '{use tools}\n# Guide\nRead ${bonus} rules.\n* Next\n  Done.\n',
  'extensions/tools.xty': '{extern host.roll(n)}\n{const bonus = 2}\n',
}

describe('spkg play of a folder and of the .spkg packed from it behave the same', () => {
  it('an instruction package with requires and .xty modules: same transcript and diagnostics', async () => {
    const dir = writeTree(freshDir(), guide)
    const file = join(freshDir(), 'guide.spkg')
    const packed = await runCli(['pack', dir, '-o', file, '--host-namespace', 'host'])
    expect(packed.code).toBe(0)
    const args = ['--choose', '1', '--format', 'json', '--host-namespace', 'host']
    const fromFolder = await runCli(['play', dir, ...args])
    const fromPackage = await runCli(['play', file, ...args])
    expect(fromFolder.code).toBe(0)
    expect(fromPackage.stdout).toBe(fromFolder.stdout)
    expect(fromPackage.stderr).toBe(fromFolder.stderr)
    expect(lines(fromFolder.stdout).map((e) => e.type === 'block' && e.text)).toContain('Read 2 rules.')

    // Without --host-namespace both are refused alike, and the advice names play's own option.
    const refusedFolder = await runCli(['play', dir])
    const refusedPackage = await runCli(['play', file])
    expect(refusedFolder.code).toBe(1)
    expect(refusedPackage.code).toBe(1)
    expect(refusedPackage.stderr).toBe(refusedFolder.stderr)
    expect(refusedFolder.stderr).toContain('pkg/unsupported-requires')
    expect(refusedFolder.stderr).toContain('Pass --host-namespace host')
  })

  it('plays a folder whose manifest has no parts, and one with no manifest, as pack would', async () => {
    const parts = {
      'story/0001-inn.sty': '# Inn\nDawn.\n[[ 0002-road.sty ]]\n',
      'story/0002-road.sty': '# Road\nThe road.\n* Walk\n  On.\n',
    }
    const noParts = writeTree(freshDir(), { 'manifest.json': JSON.stringify({ id: ID }), ...parts })
    const noManifest = writeTree(freshDir(), parts)
    for (const dir of [noParts, noManifest]) {
      const r = await runCli(['play', dir, '--choose', '1'])
      expect(r.stderr).toBe('')
      expect(r.code).toBe(0)
      expect(r.stdout).toContain(
        '== story/0002-road.sty\n# Road\nThe road.\n  1) Walk  [1]\n> Walk\nOn.\n-- end',
      )
    }
    // Without an id the draft still saves and resumes: the same folder always gets the same id.
    await runCli(['play', noManifest, '--save', join(noManifest, '..', 'a.json')])
    const resumed = await runCli([
      'play',
      noManifest,
      '--resume',
      join(noManifest, '..', 'a.json'),
      '-c',
      '1',
    ])
    expect(resumed.code).toBe(0)
    expect(resumed.stdout).toContain('-- resumed --')
  })

  it('plays one .sty file with the modules and media beside it', async () => {
    const dir = writeTree(freshDir(), {
      'duel.sty': '{use combat}\n![The yard](yard.png)\nHP ${hp}.\n',
      'combat.xty': '{const hp = 7}\n',
      'yard.png': 'png',
      'other.sty': '{set broken = }\n',
    })
    const r = await runCli(['play', join(dir, 'duel.sty'), '--format', 'json'])
    expect(r.code).toBe(0)
    expect(lines(r.stdout).map((e) => e.text)).toContain('HP 7.')
    expect(r.stdout).not.toContain('missing-media')
  })
})

describe('spkg play --random-walk', () => {
  it('groups endings by their place in the story, not by their text', async () => {
    const dir = writeTree(freshDir(), {
      'lab.sty':
        '# Lab [#lab]\n{set n = 0}\n[#shelf]\n* Take a flask\n  {set n += 1}\n  -> #shelf\n* Leave\n  You carry ${n} flasks.\n  -> END\n+ Rest -> END\n',
    })
    const r = await runCli([
      'play',
      join(dir, 'lab.sty'),
      '--random-walk',
      '40',
      '--seed',
      '1',
      '--format',
      'json',
    ])
    const report = JSON.parse(r.stdout)
    const endings = report.endings as Json[]
    // Two places end the story: "Leave" (2) and "Rest" (3), however many flasks were carried.
    // Two places end the story: the '-> END' of "Leave" (line 9) and the one of "Rest" (line 10).
    expect(endings.map((e) => `${e.section} ${JSON.stringify(e.at)}`).sort()).toEqual([
      'lab [{"line":10,"column":11}]',
      'lab [{"line":9,"column":6}]',
    ])
    expect(endings.reduce((n, e) => n + (e.count as number), 0)).toBe(40)
    // Walks took different numbers of flasks: the texts differed, the place did not.
    expect(report.longest.choices).toBeGreaterThan(1)
    const text = await runCli(['play', join(dir, 'lab.sty'), '--random-walk', '40', '--seed', '1'])
    expect(text.stdout).toMatch(
      /endings reached \(2\):\n( +\d+ {2}lab\.sty:10:11 in #lab {2}"Rest"\n)? +\d+ {2}lab\.sty:9:6 in #lab {2}"You carry \d+ flasks\."\n/,
    )
  })
})
