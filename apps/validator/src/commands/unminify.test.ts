// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'
import { longNamedInn } from '../../test/helpers/long-named-inn'
import { freshDir, storyTree, writeTree } from '../../test/helpers/tree'

const EXAMPLE = resolve(__dirname, '../../../../examples/crooked-inn')
const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b)

/** The event stream of `spkg play --format json`, diagnostics by code only. */
async function play(cwd: string, story: string, choose: string): Promise<string> {
  const r = await runCli(['play', story, '--choose', choose, '--format', 'json', '--seed', '5'], { cwd })
  return r.stdout
}

describe('spkg pack --minify and spkg unminify', () => {
  it('packs minified with build and names map, plays the same, signs, and unminifies', async () => {
    const cwd = freshDir()
    const INN = longNamedInn(cwd)
    const p = await runCli(['pack', INN, '-o', 'min.spkg', '--minify', '-q'], { cwd })
    expect(p.code).toBe(0)
    expect((await runCli(['pack', INN, '-o', 'full.spkg', '-q'], { cwd })).code).toBe(0)
    const files = unzipSync(readFileSync(join(cwd, 'min.spkg')))
    const manifest = JSON.parse(text(files['manifest.json']))
    expect(manifest.build).toEqual({ minified: true, names_map: 'META-PKG/names.json' })
    const names = JSON.parse(text(files['META-PKG/names.json']))
    expect(Object.values(names.variables).sort()).toEqual(['gold_coins', 'wolves_watching'])
    expect(Object.values(names.ids)).toEqual(['edge_of_the_dark_forest'])
    expect(text(files['story/0003-forest.sty'])).not.toMatch(/wolves_watching|edge_of_the_dark_forest/)
    expect(text(files['story/0002-road.sty'])).not.toContain('0003-forest.sty:edge_of_the_dark_forest')
    expect(readFileSync(join(cwd, 'min.spkg')).length).toBeLessThan(
      readFileSync(join(cwd, 'full.spkg')).length + 400,
    )
    expect((await runCli(['validate', 'min.spkg'], { cwd })).code).toBe(0)
    // `spkg play` of the minified package speaks the author's names: same events, same answers.
    for (const choose of [
      '1',
      '>story/0003-forest.sty:edge_of_the_dark_forest,1',
      '>story/0003-forest.sty,1',
    ])
      expect(await play(cwd, 'min.spkg', choose)).toBe(await play(cwd, 'full.spkg', choose))
    expect(await play(cwd, 'min.spkg', '>story/0003-forest.sty:edge_of_the_dark_forest')).toContain(
      '"scene":"edge_of_the_dark_forest"',
    )
    // A state saved by playing one build resumes on the other.
    const save = [
      'play',
      'min.spkg',
      '--choose',
      '>story/0003-forest.sty:edge_of_the_dark_forest',
      '--save',
      's.json',
    ]
    expect((await runCli(save, { cwd })).code).toBe(0)
    expect(readFileSync(join(cwd, 's.json'), 'utf8')).toContain(
      '"story/0003-forest.sty:edge_of_the_dark_forest@visits"',
    )
    const resume = (pkg: string) =>
      runCli(['play', pkg, '--resume', 's.json', '--choose', '1', '--format', 'json'], { cwd })
    const [onFull, onMin] = [await resume('full.spkg'), await resume('min.spkg')]
    expect(onFull.code).toBe(0)
    expect(onFull.stdout).not.toContain('resume-diverged')
    expect(onMin.stdout).toBe(onFull.stdout)
    const walkMin = await runCli(['play', 'min.spkg', '--random-walk', '20', '--format', 'json'], { cwd })
    const walkFull = await runCli(['play', 'full.spkg', '--random-walk', '20', '--format', 'json'], { cwd })
    expect(walkMin.stdout.replaceAll('min.spkg', 'X')).toBe(walkFull.stdout.replaceAll('full.spkg', 'X'))
    // The names map is signed like any file.
    expect((await runCli(['keygen', '-o', 'author'], { cwd })).code).toBe(0)
    expect(
      (await runCli(['sign', 'min.spkg', '--key', 'author.sec', '-o', 'signed.spkg'], { cwd })).code,
    ).toBe(0)
    const checksum = text(unzipSync(readFileSync(join(cwd, 'signed.spkg')))['META-PKG/checksum.sha256'])
    expect(checksum).toMatch(/ {1,2}\*?META-PKG\/names\.json\n/)
    // Unminify: the author's names back, plays as the original.
    const u = await runCli(['unminify', 'signed.spkg', '-o', 'src'], { cwd })
    expect(u.code).toBe(0)
    const forest = readFileSync(join(cwd, 'src/story/0003-forest.sty'), 'utf8')
    expect(forest).toContain('{set wolves_watching = 2}')
    expect(forest).toContain('${wolves_watching} wolves watch you. You have ${gold_coins} coins.')
    const restored = JSON.parse(readFileSync(join(cwd, 'src/manifest.json'), 'utf8'))
    expect(restored.build).toBeUndefined()
    expect(await play(cwd, 'src', '1')).toBe(await play(cwd, INN, '1'))
    // Never over an existing folder.
    const again = await runCli(['unminify', 'signed.spkg', '-o', 'src'], { cwd })
    expect(again.code).toBe(2)
    expect(again.stderr).toMatch(/'src' exists and is not empty/)
  })

  it('reports the findings and runtime problems of a minified package with the author names', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 's'), {
      ...storyTree({ parts: ['story/0001-inn.sty'] }),
      'story/0001-inn.sty': [
        '// a comment the minifier drops',
        '{use lib}',
        '{set purse = 0}',
        '# The shop [#the_shop_itself]',
        'You count ${twice_the_amount(purse, 2)} coins, visit ${visits(#the_shop_itself)}.',
        '{if passed(#the_shop_counter)}Again.{end}',
        '[#the_shop_counter]',
        '* {if purse > 5} Buy the lamp',
        '* {if purse > 9} Buy the map',
        'The shop closes.',
        '',
      ].join('\n'),
      'extensions/lib.xty': '{fn twice_the_amount(n) = n * 2}\n',
    })
    const p = await runCli(['pack', 's', '-o', 'min.spkg', '--minify', '--allow-errors', '-q'], { cwd })
    expect(p.code).toBe(0)
    const names = JSON.parse(text(unzipSync(readFileSync(join(cwd, 'min.spkg')))['META-PKG/names.json']))
    expect(Object.values(names.functions)).toEqual(['twice_the_amount'])
    expect(Object.values(names.ids).sort()).toEqual(['the_shop_counter', 'the_shop_itself'])
    const v = await runCli(['validate', 'min.spkg', '--format', 'json'], { cwd })
    const arity = (JSON.parse(v.stdout).diagnostics as Array<Record<string, unknown>>).find(
      (d) => d.code === 'story/arity',
    )!
    expect(arity.message).toMatch(
      /^twice_the_amount\(\) takes 1 argument.*, not 2 \(minified file, line 4 column \d+\)$/,
    )
    expect(arity.path).toBe('story/0001-inn.sty')
    expect(arity.line).toBeUndefined()
    const r = await runCli(['play', 'min.spkg', '--format', 'json'], { cwd })
    // The runtime warning names the group by its original id, the heading event its original id.
    expect(r.stdout).toContain("no option of the group 'story/0001-inn.sty:the_shop_counter' is available")
    expect(r.stdout).toContain('"id":"the_shop_itself"')
  })

  it('renames the sets and items of a 1.1 story: it prints the same, states cross builds', async () => {
    const cwd = freshDir()
    const { 'story/0002-road.sty': _road, ...tree } = storyTree({
      parts: ['story/0001-inn.sty'],
      story_lang: '1.1',
    })
    writeTree(join(cwd, 's'), {
      ...tree,
      'story/0001-inn.sty': [
        '{items Provisions = biscuits, lantern_oil "oil for the lantern", rope_ladder}',
        '{set satchel_contents = Provisions(biscuits)}',
        '# The store [#the_store_room]',
        'You carry ${satchel_contents}; the last is ${max(satchel_contents)}.',
        '{if contains(satchel_contents, rope_ladder)}You can climb.{end}',
        '{if contains(satchel_contents, lantern_oil)}The oil smells.{end}',
        '* {if not contains(satchel_contents, lantern_oil)} Take the oil -> #the_store_room',
        '  {set satchel_contents += lantern_oil}',
        '* {if not contains(satchel_contents, rope_ladder)} Take the ladder -> #the_store_room',
        '  {set satchel_contents += Provisions.rope_ladder}',
        '* {if max(satchel_contents) > Provisions(biscuits)} Leave -> END',
        '',
      ].join('\n'),
    })
    expect((await runCli(['pack', 's', '-o', 'min.spkg', '--minify', '-q'], { cwd })).code).toBe(0)
    expect((await runCli(['pack', 's', '-o', 'full.spkg', '-q'], { cwd })).code).toBe(0)
    const files = unzipSync(readFileSync(join(cwd, 'min.spkg')))
    const names = JSON.parse(text(files['META-PKG/names.json']))
    expect(Object.values(names.sets).sort()).toEqual(['Provisions', 'lantern_oil', 'rope_ladder'])
    const source = text(files['story/0001-inn.sty'])
    expect(source).toMatch(
      /^\{items [a-z]+ = biscuits, [a-z]+ "oil for the lantern", [a-z]+ "rope_ladder"\}$/m,
    )
    expect((await runCli(['validate', 'min.spkg'], { cwd })).code).toBe(0)
    for (const choose of ['1', '2,1', '1,1,1', '2,2'])
      expect(await play(cwd, 'min.spkg', choose)).toBe(await play(cwd, 'full.spkg', choose))
    // A state saved on the minified build names the original set and items, and resumes on the original.
    expect((await runCli(['play', 'min.spkg', '--choose', '2', '--save', 's.json'], { cwd })).code).toBe(0)
    const saved = JSON.parse(readFileSync(join(cwd, 's.json'), 'utf8'))
    expect(saved.variables.satchel_contents).toEqual({
      $items: 'Provisions',
      of: ['biscuits', 'rope_ladder'],
    })
    const resumed = await runCli(['play', 'full.spkg', '--resume', 's.json', '--choose', '1'], { cwd })
    expect(resumed.code).toBe(0)
    expect(resumed.stdout).toContain('biscuits, oil for the lantern, rope_ladder')
    expect((await runCli(['unminify', 'min.spkg', '-o', 'src'], { cwd })).code).toBe(0)
    expect(readFileSync(join(cwd, 'src/story/0001-inn.sty'), 'utf8')).toContain(
      '{items Provisions = biscuits, lantern_oil "oil for the lantern", rope_ladder}',
    )
  })

  it('refuses a package that is not minified, and a story it cannot minify, writing nothing', async () => {
    const cwd = freshDir()
    expect((await runCli(['pack', EXAMPLE, '-o', 'full.spkg', '-q'], { cwd })).code).toBe(0)
    const r = await runCli(['unminify', 'full.spkg', '-o', 'out'], { cwd })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/no names map.*minify\/bad-names-map/)
    writeTree(join(cwd, 'bad'), { 'story/0001-a.sty': '{set = 1}\nText.\n' })
    const b = await runCli(['pack', 'bad', '-o', 'bad.spkg', '--minify', '--allow-errors'], { cwd })
    expect(b.code).toBe(2)
    expect(b.stderr).toMatch(/cannot minify \(minify\/invalid-story\).*nothing was written/)
  })
})
