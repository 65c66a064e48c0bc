// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/**
 * What a user sees of 1.1 sets, block functions and temporaries: `spkg validate` reports the set
 * trap statically with its fix, `spkg play` plays them, random walks and `spkg map` take them.
 */
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'
import { freshDir, writeTree } from '../../test/helpers/tree'

const ID = '3b8e6f52-91c4-4d7a-b0e2-5a6c7d8e9f01'
const story = (part: string) => ({
  'manifest.json': JSON.stringify({ id: ID, story_lang: '1.1', parts: ['story/0001-shed.sty'] }),
  'extensions/kit.xty': [
    '{items Tools = rope, lamp, key}',
    '{fn take(item, ref bag)}',
    '{if contains(bag, item)}',
    '{return false}',
    '{end}',
    '{set bag = bag + item}',
    '{return true}',
    '{end}',
    '',
  ].join('\n'),
  'story/0001-shed.sty': part,
})
const GOOD = [
  '{use kit}',
  '{set pack = Tools(rope)}',
  '# The Shed [#shed]',
  '{temp n = len(pack)}',
  'You carry ${pack} (${n}).',
  '+ Take the lamp',
  '  {if not take(Tools.lamp, pack)}',
  '  You have it already.',
  '  {end}',
  '  -> #shed',
  '+ {if not contains(pack, key)} Take the key',
  '  {set pack += key}',
  '  -> #shed',
  '+ Leave',
  '',
].join('\n')

describe('1.1 sets and functions in the CLI', () => {
  it('spkg validate reports the set trap as story/type-error with the item to write', async () => {
    const dir = writeTree(
      freshDir(),
      story(GOOD.replace('  {set pack += key}', '  {set pack = pack - ["rope"]}')),
    )
    const r = await runCli(['validate', dir, '--format', 'json'])
    const found = (JSON.parse(r.stdout).diagnostics as Array<Record<string, unknown>>).filter((d) =>
      String(d.code).startsWith('story/'),
    )
    expect(found.map((d) => `${d.path}:${d.line}:${d.column} ${d.code}`)).toEqual([
      'story/0001-shed.sty:12:20 story/type-error',
    ])
    expect(found[0]!.message).toMatch(/write Tools\.rope$/)
  })
  it('spkg play plays sets, a block function with a ref parameter and a temp', async () => {
    const dir = writeTree(freshDir(), story(GOOD))
    const r = await runCli(['play', dir, '--choose', '2,1,1,=3'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('You carry rope (1).')
    expect(r.stdout).toContain('You carry rope, key (2).')
    expect(r.stdout).toContain('You carry rope, lamp, key (3).')
    expect(r.stdout).toContain('You have it already.')
    expect(r.stdout).toMatch(/> Leave\n-- end\n$/)
  })
  it('random walks and spkg map take the 1.1 constructs', async () => {
    const dir = writeTree(freshDir(), story(GOOD))
    const walks = await runCli(['play', dir, '--random-walk', '20', '--seed', '2'])
    expect(walks.stderr).toBe('')
    expect(walks.code).toBe(0)
    const map = await runCli(['map', dir, '-o', 'map.json', '--random-walk', '5'], { cwd: dir })
    expect(map.code).toBe(0)
    expect(map.stderr).toMatch(/map\.json: \d+ nodes/)
  })
  it('at 1.0 the same story is refused line by line, as 1.0 always read it', async () => {
    const files = story(GOOD)
    files['manifest.json'] = JSON.stringify({ id: ID, parts: ['story/0001-shed.sty'] })
    const dir = writeTree(freshDir(), files)
    const r = await runCli(['validate', dir, '--format', 'json'])
    const codes = (JSON.parse(r.stdout).diagnostics as Array<{ code: string }>).map((d) => d.code)
    expect(codes).toContain('story/unknown-command')
  })
})
