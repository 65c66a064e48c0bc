import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { renderCodesMarkdown, renderSeverities } from './codes-doc'
import { generateValidators } from './compiled/generate'
import { manifestJsonSchema, sessionJsonSchema } from './json-schema'
import { renderManifestLimitsMarkdown } from './manifest-limits-doc'

const pkg = join(import.meta.dirname, '..')
const read = (p: string) => readFileSync(join(pkg, p), 'utf8')

// The committed files are generated from the zod schemas and the code catalogue:
// run `pnpm --filter @spkg/manifest generate` after changing either.
describe('generated files are in sync with their sources', () => {
  it('manifest.schema.json', () => {
    expect(JSON.parse(read('manifest.schema.json'))).toEqual(manifestJsonSchema())
  })
  it('session.schema.json', () => {
    expect(JSON.parse(read('session.schema.json'))).toEqual(sessionJsonSchema())
  })
  const formatted = (path: string, text: string) =>
    execFileSync(
      join(pkg, '../../node_modules/.bin/biome'),
      ['check', '--write', `--stdin-file-path=${path}`],
      {
        input: text,
        encoding: 'utf8',
      },
    )
  it('src/compiled/validators.ts (as Biome writes it)', () => {
    expect(read('src/compiled/validators.ts')).toBe(
      formatted('src/compiled/validators.ts', generateValidators()),
    )
  })
  it('src/codes/severities.ts (as Biome writes it)', () => {
    expect(read('src/codes/severities.ts')).toBe(formatted('src/codes/severities.ts', renderSeverities()))
  })
  it('docs/diagnostic-codes.md', () => {
    expect(read('../../docs/diagnostic-codes.md')).toBe(renderCodesMarkdown())
  })
  it('docs/manifest-limits.md', () => {
    expect(read('../../docs/manifest-limits.md')).toBe(renderManifestLimitsMarkdown())
  })
  it('the manifest schema carries the bounds of MANIFEST_LIMITS and the version pattern, for editors', () => {
    // biome-ignore lint/suspicious/noExplicitAny: a JSON Schema read back
    const defs = (manifestJsonSchema() as any).$defs
    const props = defs.Manifest.properties
    expect(props.title.maxLength).toBe(200)
    expect(props.description.maxLength).toBe(10_000)
    expect(props.tags).toMatchObject({ maxItems: 100, items: { maxLength: 100 } })
    expect(props.integrity).toMatchObject({ maxProperties: 500, propertyNames: { maxLength: 1024 } })
    expect(defs.Part.properties.name.maxLength).toBe(200)
    expect(defs.TabBarSection.properties.label.maxLength).toBe(200)
    expect(new RegExp(props.version.pattern).test('1.0-beta.2')).toBe(true)
    expect(new RegExp(props.version.pattern).test('../../x')).toBe(false)
    expect(defs.Manifest.maxProperties).toBe(46 + 100 + 1)
  })
  it('the manifest schema names every field of the SPEC table', () => {
    const schema = manifestJsonSchema() as {
      $defs: { Manifest: { properties: Record<string, unknown>; required: string[] } }
    }
    const spec =
      `story_lang manifest type id title intro cover author version language direction date description
      genre tags license parts assets instruction stories readers age content_warnings series season entry series_name
      season_name duration sensors accessibility allowed_urls extensions requires loading preload locked offline preview
      integrity solo_mode storage reader build signed signature`.split(/\s+/)
    expect(Object.keys(schema.$defs.Manifest.properties)).toEqual(spec)
    expect(schema.$defs.Manifest.required).toEqual(['id'])
  })
})
