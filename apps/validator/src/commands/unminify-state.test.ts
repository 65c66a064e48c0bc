/**
 * A reading state saved on one build of a story resumes on the other, through the public API a
 * player uses: `openPackage` (@spkg/reader) of the original and of the `spkg pack --minify`
 * package, `pkg.storySource()`, `createStoryRun`, `saveState()`, `resumeStoryRun` (@spkg/story).
 * The reader hands the names map to the engine, which saves with the original names and maps a
 * state to the build's names on resume: nothing for the player to do.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { openPackage, type SpkgPackage } from '@spkg/reader/node'
import {
  createStoryRun,
  type NamesMap,
  resumeStoryRun,
  type StoryRun,
  translateEventNames,
  translateStateNames,
} from '@spkg/story'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'
import { longNamedInn } from '../../test/helpers/long-named-inn'
import { freshDir } from '../../test/helpers/tree'

const EXAMPLES = resolve(__dirname, '../../../../examples')

async function open(cwd: string, file: string): Promise<SpkgPackage> {
  const r = await openPackage(new Uint8Array(readFileSync(join(cwd, file))))
  if (!r.ok) throw new Error(JSON.stringify(r.diagnostics))
  return r.package
}

/** Both builds of an example, opened. */
async function builds(example: string): Promise<{ original: SpkgPackage; minified: SpkgPackage }> {
  const cwd = freshDir()
  // crooked-inn's names are too short to pay for a names-map entry: its long-named copy has them renamed.
  const dir = example === 'crooked-inn' ? longNamedInn(cwd) : join(EXAMPLES, example)
  expect((await runCli(['pack', dir, '-o', 'full.spkg', '-q'], { cwd })).code).toBe(0)
  expect((await runCli(['pack', dir, '-o', 'min.spkg', '--minify', '-q'], { cwd })).code).toBe(0)
  return { original: await open(cwd, 'full.spkg'), minified: await open(cwd, 'min.spkg') }
}

/** Events up to the next pause or the end, replays left out, ids told with the original names. */
async function until(run: StoryRun, names?: NamesMap): Promise<string[]> {
  const out: string[] = []
  for (;;) {
    const e = await run.next()
    if (!e) return out
    if (!('replay' in e && e.replay))
      out.push(JSON.stringify(names ? translateEventNames(e, names, 'original') : e))
    if (e.type === 'pause' || e.type === 'end') return out
  }
}

describe('a reading state crosses the builds of a minified package through the reader', () => {
  it('crooked-inn: saved on the original, resumed on the minified package, and back', async () => {
    const { original, minified } = await builds('crooked-inn')
    const names = minified.storySource().names!
    expect(Object.values(names.ids ?? {})).toContain('edge_of_the_dark_forest')
    const run = createStoryRun(original.storySource(), { seed: 3 })
    await until(run)
    run.choose({ link: 'story/0003-forest.sty:edge_of_the_dark_forest' })
    await until(run)
    const saved = run.saveState()
    expect(saved.choices['story/0002-road.sty:@end']).toEqual([
      '>story/0003-forest.sty:edge_of_the_dark_forest',
    ])
    expect(saved.variables['story/0003-forest.sty:edge_of_the_dark_forest@visits']).toBe(1)
    // Saved values beat replayed ones: a value the replay would not recompute shows the translation.
    saved.variables.gold_coins = 7

    const onMin = await resumeStoryRun(minified.storySource(), saved)
    const onOrig = await resumeStoryRun(original.storySource(), saved)
    expect(onMin.diagnostics).toEqual([])
    expect(onOrig.diagnostics).toEqual([])
    expect(onMin.scrollBack.map((b) => b.block.text)).toEqual(onOrig.scrollBack.map((b) => b.block.text))
    expect(await until(onMin.run, names)).toEqual(await until(onOrig.run))
    // The minified build saves with the original names: the state is the same on both builds.
    const fromMin = onMin.run.saveState()
    expect(fromMin).toEqual(onOrig.run.saveState())
    expect(fromMin.variables.gold_coins).toBe(7)
    onMin.run.choose({ option: '1' })
    onOrig.run.choose({ option: '1' })
    expect(await until(onMin.run, names)).toEqual(await until(onOrig.run))

    // Back: the minified build's state resumes on the original package.
    const again = await resumeStoryRun(original.storySource(), fromMin)
    expect(again.diagnostics).toEqual([])
    expect(again.run.saveState().variables.gold_coins).toBe(7)

    // Without the reader's names map the same state does not fit the minified build: the
    // translation is what makes it resume.
    const { names: _, ...bare } = minified.storySource()
    expect((await resumeStoryRun(bare, saved)).diagnostics.map((d) => d.code)).toEqual([
      'story/resume-diverged',
    ])
    // A state an older host saved with the short names resumes too (mapping is idempotent).
    const short = translateStateNames(saved, names, 'minified')
    expect(short.choices).not.toEqual(saved.choices)
    expect((await resumeStoryRun(minified.storySource(), short)).diagnostics).toEqual([])
  })

  it('fencing-lesson (a module): a state saved mid-bout on either build resumes on the other', async () => {
    const { original, minified } = await builds('fencing-lesson')
    const names = minified.storySource().names!
    expect(Object.keys(names.functions ?? {}).length).toBeGreaterThan(0)
    const a = createStoryRun(original.storySource(), { seed: 11 })
    const b = createStoryRun(minified.storySource(), { seed: 11 })
    for (let i = 0; i < 3; i++) {
      const ea = await until(a)
      expect(await until(b, names)).toEqual(ea)
      if (!a.pause) break
      a.choose({ option: a.pause.options[0]!.id })
      b.choose({ option: b.pause!.options[0]!.id })
    }
    expect(b.saveState()).toEqual(a.saveState())
    const onOrig = await resumeStoryRun(original.storySource(), b.saveState())
    const onMin = await resumeStoryRun(minified.storySource(), a.saveState())
    expect([...onOrig.diagnostics, ...onMin.diagnostics]).toEqual([])
    expect(await until(onMin.run, names)).toEqual(await until(onOrig.run))
  })
})

describe('a minified package played through the reader', () => {
  it('reports a runtime error with the original variable name', async () => {
    const cwd = freshDir()
    const dir = longNamedInn(cwd)
    // The inn reads the wolves' count before the forest sets it: a runtime `story/undefined`.
    const inn = join(dir, 'story/0001-inn.sty')
    writeFileSync(inn, readFileSync(inn, 'utf8').replace('Dawn.', `Dawn, \${wolves_watching} wolves.`))
    expect((await runCli(['pack', dir, '-o', 'min.spkg', '--minify', '-q'], { cwd })).code).toBe(0)
    const pkg = await open(cwd, 'min.spkg')
    const short = Object.entries(pkg.storySource().names!.variables).find(([, o]) => o === 'wolves_watching')
    expect(short?.[0]).toMatch(/^[a-z]{1,2}$/)
    const run = createStoryRun(pkg.storySource(), { seed: 1 })
    const found: string[] = []
    for (let e = await run.next(); e && e.type !== 'pause' && e.type !== 'end'; e = await run.next())
      if (e.type === 'diagnostic') found.push(`${e.diagnostic.code} ${e.diagnostic.message}`)
    expect(found).toEqual([
      expect.stringMatching(/^story\/undefined 'wolves_watching' has no value yet \(minified file, line \d+/),
    ])
    pkg.close()
  })
})
