/**
 * The repository's example stories (examples/, listed in examples/README.md): each folder validates with no finding
 * of any severity, every seeded random walk through it reaches an ending (no option never offered, no runtime
 * diagnostic), the README's command for it plays to `-- end`, and together they show every capability the
 * README's table claims: a flat story, several parts with images and audio, a session file, an
 * extension module, a tab bar and an instruction package linked both ways. All through `spkg` as a user runs it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli'

const REPO = join(import.meta.dirname, '../../..')
const EXAMPLES = join(REPO, 'examples')
const README = readFileSync(join(EXAMPLES, 'README.md'), 'utf8')
const folders = readdirSync(EXAMPLES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort()

type Json = Record<string, unknown>
interface Report {
  loads: boolean
  valid: boolean
  layout: 'packaged' | 'flat'
  type: 'story' | 'instruction' | null
  parts: string[]
  manifest: Json | null
  diagnostics: Array<{ code: string; severity: string; message: string }>
}

async function validate(folder: string): Promise<Report> {
  const r = await runCli(['validate', `examples/${folder}`, '--format', 'json'], { cwd: REPO })
  expect(r.code, r.stdout + r.stderr).toBe(0)
  return JSON.parse(r.stdout) as Report
}

const read = (folder: string, path: string) => readFileSync(join(EXAMPLES, folder, path), 'utf8')
const storyText = (folder: string) =>
  readdirSync(join(EXAMPLES, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.sty'))
    .map((f) => read(folder, f))
    .join('\n')

describe.each(folders)('examples/%s', (folder) => {
  it('validates with no finding at all, not even an info', async () => {
    const report = await validate(folder)
    expect(report.loads && report.valid).toBe(true)
    expect(report.diagnostics).toEqual([])
  })

  it('reaches an ending on every seeded random walk, offering every option', async () => {
    const r = await runCli(
      ['play', `examples/${folder}`, '--random-walk', '40', '--explore', '--format', 'json'],
      { cwd: REPO },
    )
    expect(r.code, r.stderr).toBe(0)
    const walk = JSON.parse(r.stdout) as {
      walks: number
      endings: Array<{ count: number }>
      unfinished: unknown[]
      neverOffered: unknown[]
      diagnostics: unknown[]
    }
    expect(walk.unfinished).toEqual([])
    expect(walk.neverOffered).toEqual([])
    expect(walk.diagnostics).toEqual([])
    expect(walk.endings.reduce((n, e) => n + e.count, 0)).toBe(40)
  })

  it("plays to an ending with the README's command", async () => {
    const line = README.split('\n').find((l) => l.startsWith(`| [${folder}](`))
    expect(line, `examples/README.md has no row for ${folder}`).toBeDefined()
    const command = /`spkg play (examples\/[^`]+)`/.exec(line ?? '')?.[1]
    expect(command, `the row of ${folder} has no \`spkg play\` command`).toBeDefined()
    const args = (command ?? '').split(' ').map((a) => a.replace(/^'(.*)'$/, '$1'))
    expect(args[0]).toBe(`examples/${folder}`)
    const r = await runCli(['play', ...args], { cwd: REPO })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('-- end')
  })
})

describe('the examples together show every capability', () => {
  const reports = new Map<string, Report>()
  const report = async (folder: string) => {
    if (!reports.has(folder)) reports.set(folder, await validate(folder))
    return reports.get(folder) as Report
  }
  const packaged = folders.filter((f) => existsSync(join(EXAMPLES, f, 'manifest.json')))
  const manifests = new Map(packaged.map((f) => [f, JSON.parse(read(f, 'manifest.json')) as Json]))

  it('a short flat story', async () => {
    const flat = folders.filter((f) => !manifests.has(f))
    expect(flat.length).toBeGreaterThan(0)
    for (const f of flat) expect((await report(f)).layout).toBe('flat')
  })

  it('a story in several parts with named images (alt text) and an audio clip', async () => {
    const found = packaged.filter((f) => {
      const m = manifests.get(f) as { parts?: unknown[]; assets?: Array<{ file: string; name?: string }> }
      const text = storyText(f)
      return (
        (m.parts?.length ?? 0) > 1 &&
        /^!\[[^\]]+\]\(assets\/[^)]+\.(webp|png)\)/m.test(text) &&
        /^!\[[^\]]+\]\(assets\/[^)]+\.(ogg|wav)\)/m.test(text) &&
        (m.assets ?? []).every((a) => typeof a.name === 'string' && a.name.length > 0)
      )
    })
    expect(found.length).toBeGreaterThan(0)
  })

  it('a session file of numbers, strings, a list of names and booleans, all used by the story', () => {
    const found = packaged.filter((f) => existsSync(join(EXAMPLES, f, 'session.json')))
    expect(found.length).toBeGreaterThan(0)
    for (const f of found) {
      const session = JSON.parse(read(f, 'session.json')) as Json
      const kinds = new Set(Object.values(session).map((v) => (Array.isArray(v) ? 'list' : typeof v)))
      expect([...kinds].sort()).toEqual(['boolean', 'list', 'number', 'string'])
      const text = storyText(f)
      for (const key of Object.keys(session)) expect(text, key).toMatch(new RegExp(`\\b${key}\\b`))
    }
  })

  it('an extension module bound with {use}', () => {
    const found = packaged.filter(
      (f) => existsSync(join(EXAMPLES, f, 'extensions')) && /^\{use \w+\}/m.test(storyText(f)),
    )
    expect(found.length).toBeGreaterThan(0)
  })

  it('a tab bar with its five sections and a map image in the package', async () => {
    const found = packaged.filter(
      (f) => (manifests.get(f)?.reader as { tabBar?: { enabled?: boolean } })?.tabBar?.enabled === true,
    )
    expect(found.length).toBeGreaterThan(0)
    for (const f of found) {
      const reader = (await report(f)).manifest?.reader as { tabBar?: Record<string, Json> } | undefined
      const bar = reader?.tabBar ?? {}
      for (const s of ['help', 'map', 'bag', 'character', 'actions']) expect(bar[s]?.enabled, s).toBe(true)
      expect(existsSync(join(EXAMPLES, f, bar.map?.image as string))).toBe(true)
    }
  })

  it('an instruction package linked both ways with its story', async () => {
    const found = packaged.filter((f) => manifests.get(f)?.type === 'instruction')
    expect(found.length).toBeGreaterThan(0)
    for (const f of found) {
      const instruction = await report(f)
      expect(instruction.type).toBe('instruction')
      const stories = instruction.manifest?.stories as string[]
      expect(stories.length).toBeGreaterThan(0)
      for (const id of stories) {
        const story = packaged.find((s) => manifests.get(s)?.id === id)
        expect(story, `no example story has the id ${id}`).toBeDefined()
        expect(manifests.get(story as string)?.instruction).toBe(instruction.manifest?.id)
      }
    }
  })
})
