/**
 * Writes the generated files of @spkg/manifest: manifest.schema.json, session.schema.json,
 * src/compiled/validators.ts and src/codes/severities.ts (formatted and imports organised by Biome), and
 * docs/diagnostic-codes.md and docs/manifest-limits.md at the repository root. `generated.test.ts` fails when they drift.
 */
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { renderCodesMarkdown, renderSeverities } from '../src/codes-doc'
import { generateValidators } from '../src/compiled/generate'
import { manifestJsonSchema, sessionJsonSchema } from '../src/json-schema'
import { renderManifestLimitsMarkdown } from '../src/manifest-limits-doc'

const pkg = join(import.meta.dirname, '..')
writeFileSync(join(pkg, 'manifest.schema.json'), `${JSON.stringify(manifestJsonSchema(), null, 2)}\n`)
writeFileSync(join(pkg, 'session.schema.json'), `${JSON.stringify(sessionJsonSchema(), null, 2)}\n`)
const formatted = (path: string, text: string) => {
  writeFileSync(path, text)
  execFileSync(join(pkg, '../../node_modules/.bin/biome'), ['check', '--write', path], { stdio: 'inherit' })
}
formatted(join(pkg, 'src/compiled/validators.ts'), generateValidators())
formatted(join(pkg, 'src/codes/severities.ts'), renderSeverities())
writeFileSync(join(pkg, '../../docs/diagnostic-codes.md'), renderCodesMarkdown())
writeFileSync(join(pkg, '../../docs/manifest-limits.md'), renderManifestLimitsMarkdown())
console.log(
  'wrote the JSON Schemas, src/compiled/validators.ts, src/codes/severities.ts, docs/diagnostic-codes.md, docs/manifest-limits.md',
)
