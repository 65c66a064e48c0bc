import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseStory } from '@spkg/story'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'
import { longNamedInn } from '../../test/helpers/long-named-inn'
import { freshDir } from '../../test/helpers/tree'
import { buildStoryMap, type StoryMap } from './map-graph'
import { edgeId, renderSvg } from './map-render'

const INN = resolve(__dirname, '../../../../examples/crooked-inn')

/** As Graphviz writes an attribute in SVG. */
const inSvg = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/-/g, '&#45;').replace(/>/g, '&gt;').replace(/</g, '&lt;')

const edgesOf = (m: StoryMap) =>
  m.edges.map((e) => `${e.from} -> ${e.to} ${e.kind}${e.label ? ` ${e.label}` : ''}`)

describe('spkg map', () => {
  it('maps the example story: its parts, scenes, groups, gates, links, options and ending', async () => {
    const cwd = freshDir()
    const r = await runCli(['map', INN, '-o', 'inn.json'], { cwd })
    expect(r.code).toBe(0)
    const m = JSON.parse(readFileSync(join(cwd, 'inn.json'), 'utf8')) as StoryMap
    expect(m.parts).toEqual(['story/0001-inn.sty', 'story/0002-road.sty', 'story/0003-forest.sty'])
    expect(m.nodes.map((n) => `${n.kind} ${n.id}`).sort()).toEqual([
      'end E:story/0003-forest.sty',
      'group G:story/0003-forest.sty:flee',
      'part P:story/0001-inn.sty',
      'part P:story/0002-road.sty',
      'part P:story/0003-forest.sty',
      'scene S:story/0002-road.sty:road',
      'scene S:story/0003-forest.sty:edge',
    ])
    // The road ends on live links: it pauses there, it never falls into the forest part.
    expect(edgesOf(m).sort()).toEqual([
      'G:story/0003-forest.sty:flee -> E:story/0003-forest.sty option Run',
      'P:story/0001-inn.sty -> P:story/0002-road.sty gate',
      'P:story/0002-road.sty -> S:story/0002-road.sty:road flow',
      'P:story/0003-forest.sty -> S:story/0003-forest.sty:edge flow',
      'S:story/0002-road.sty:road -> P:story/0003-forest.sty link river road',
      'S:story/0002-road.sty:road -> S:story/0003-forest.sty:edge link forest path',
      'S:story/0003-forest.sty:edge -> G:story/0003-forest.sty:flee flow',
    ])
    // The SVG (Graphviz) holds every node and edge of the model, in its cluster.
    expect((await runCli(['map', INN, '-o', 'inn.svg'], { cwd })).code).toBe(0)
    const svg = readFileSync(join(cwd, 'inn.svg'), 'utf8')
    expect(svg).toMatch(/^<\?xml[\s\S]*<svg[\s\S]*<\/svg>\s*$/)
    for (const n of m.nodes) expect(svg).toContain(`id="${inSvg(`node:${n.id}`)}"`)
    for (const e of m.edges) expect(svg).toContain(`id="${inSvg(edgeId(e))}"`)
    expect(svg).toContain('>story/0002&#45;road.sty</text>')
    const html = await runCli(['map', INN, '-o', 'inn.html'], { cwd })
    expect(html.code).toBe(0)
    const page = readFileSync(join(cwd, 'inn.html'), 'utf8')
    expect(page).toMatch(/^<!doctype html>[\s\S]*<svg[\s\S]*addEventListener\('wheel'/)
    expect(page).not.toMatch(/https?:\/\/(?!www\.w3\.org)/)
  })

  it('colours by random walks: counts on nodes and edges, never-reached ones stand out', async () => {
    const cwd = freshDir()
    const r = await runCli(['map', INN, '-o', 'inn.json', '--random-walk', '20', '--seed', '3'], { cwd })
    expect(r.code).toBe(0)
    const m = JSON.parse(readFileSync(join(cwd, 'inn.json'), 'utf8')) as StoryMap
    expect(m.walks).toBe(20)
    const reach = Object.fromEntries(m.nodes.map((n) => [n.id, n.reached]))
    expect(reach['P:story/0001-inn.sty']).toBe(20)
    expect(reach['S:story/0002-road.sty:road']).toBe(20)
    // Every walk ends at the forest's END after choosing Run, whichever link it took.
    expect(reach['E:story/0003-forest.sty']).toBe(20)
    const run = m.edges.find((e) => e.kind === 'option')!
    expect(run.reached).toBe(20)
    const links = m.edges.filter((e) => e.kind === 'link')
    expect(links.every((e) => (e.reached ?? 0) > 0)).toBe(true)
    const dot = await runCli(['map', INN, '-o', 'inn.dot', '--random-walk', '5'], { cwd })
    expect(dot.code).toBe(0)
    expect(readFileSync(join(cwd, 'inn.dot'), 'utf8')).toContain('5/5 walks')
  })

  it('draws a minified package with the original ids, as the unminified package draws', async () => {
    const cwd = freshDir()
    const dir = longNamedInn(cwd)
    expect((await runCli(['pack', dir, '-o', 'full.spkg', '-q'], { cwd })).code).toBe(0)
    expect((await runCli(['pack', dir, '-o', 'min.spkg', '--minify', '-q'], { cwd })).code).toBe(0)
    const mapOf = async (pkg: string) => {
      const r = await runCli(['map', pkg, '-o', `${pkg}.json`, '--random-walk', '12', '--seed', '5'], { cwd })
      expect(r.code).toBe(0)
      return JSON.parse(readFileSync(join(cwd, `${pkg}.json`), 'utf8')) as StoryMap
    }
    const full = await mapOf('full.spkg')
    const min = await mapOf('min.spkg')
    // nodes, edges, labels, state keys and the walks' reach: the same story, the author's names
    expect(min).toEqual(full)
    const edge = min.nodes.find((n) => n.id === 'S:story/0003-forest.sty:edge_of_the_dark_forest')
    expect(edge?.reached).toBeGreaterThan(0)
    expect(min.edges.find((e) => e.kind === 'option')?.reached).toBe(12)
  })

  it('builds the graph of groups, fallthrough options, conditions, jumps and missing targets', () => {
    const text = `Start.
* Left -> #cave
* Right
  You go right.
* Stay [#stay]
+ {if false} Never -> END
After the choice.
[[ nowhere.sty ]]
# Cave [#cave]
{if true}
It is dark.
-> END
{end}
A way out.
`
    const a = parseStory(text, { path: 'story/a.sty' }).ast
    const m = buildStoryMap([a])
    expect(edgesOf(m).sort()).toEqual([
      'G:story/a.sty:h0@1 -> E:story/a.sty option Never',
      'G:story/a.sty:h0@1 -> S:story/a.sty:cave option Left',
      'G:story/a.sty:h0@1 -> X:nowhere.sty option Right',
      'G:story/a.sty:h0@1 -> X:nowhere.sty option Stay',
      'P:story/a.sty -> G:story/a.sty:h0@1 flow',
      'S:story/a.sty:cave -> E:story/a.sty flow',
      'S:story/a.sty:cave -> E:story/a.sty jump',
    ])
    expect(m.nodes.find((n) => n.id === 'X:nowhere.sty')?.kind).toBe('missing')
  })

  it('draws a 200-node story by part, fast, every node and edge in the SVG', async () => {
    const asts = [0, 1, 2, 3].map((k) => {
      const lines: string[] = []
      for (let i = 0; i < 25; i++) {
        const s = k * 25 + i
        const next = `${String(((k + 1) % 4) + 1).padStart(4, '0')}-p.sty:s${((k + 1) % 4) * 25 + ((s * 7 + 3) % 25)}`
        lines.push(
          `# Room ${s} [#s${s}]`,
          'Text.',
          `* North -> #s${k * 25 + ((i + 1) % 25)}`,
          `* Out`,
          `  [[ ${next} ]]`,
        )
      }
      const path = `story/${String(k + 1).padStart(4, '0')}-p.sty`
      return parseStory(`${lines.join('\n')}\n`, { path }).ast
    })
    const m = buildStoryMap(asts)
    expect(m.nodes.filter((n) => n.kind === 'scene')).toHaveLength(100)
    expect(m.nodes.filter((n) => n.kind === 'group')).toHaveLength(100)
    expect(m.edges.filter((e) => e.kind === 'option')).toHaveLength(200)
    expect(m.nodes.some((n) => n.kind === 'missing')).toBe(false)
    const t = performance.now()
    const svg = await renderSvg(m)
    expect(performance.now() - t).toBeLessThan(20_000)
    expect(svg.match(/class="cluster"/g)).toHaveLength(4)
    for (const n of m.nodes) expect(svg).toContain(`id="${inSvg(`node:${n.id}`)}"`)
    for (const e of m.edges) expect(svg).toContain(`id="${inSvg(edgeId(e))}"`)
  })

  it('refuses a missing or unknown output and a bad walk count', async () => {
    const cwd = freshDir()
    expect((await runCli(['map', INN], { cwd })).code).toBe(2)
    expect((await runCli(['map', INN, '-o', 'x.png'], { cwd })).stderr).toMatch(/-o must end \.svg/)
    expect((await runCli(['map', INN, '-o', 'x.svg', '--random-walk', '0'], { cwd })).code).toBe(2)
    expect((await runCli(['map', join(cwd, 'absent'), '-o', 'x.svg'], { cwd })).code).toBe(2)
  })
})
