/**
 * Writes the generated files of @spkg/manifest: manifest.schema.json, session.schema.json and
 * docs/diagnostic-codes.md at the repository root. `generated.test.ts` fails when they drift.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { renderCodesMarkdown } from '../src/codes-doc'
import { manifestJsonSchema, sessionJsonSchema } from '../src/json-schema'

const pkg = join(import.meta.dirname, '..')
writeFileSync(join(pkg, 'manifest.schema.json'), `${JSON.stringify(manifestJsonSchema(), null, 2)}\n`)
writeFileSync(join(pkg, 'session.schema.json'), `${JSON.stringify(sessionJsonSchema(), null, 2)}\n`)
writeFileSync(join(pkg, '../../docs/diagnostic-codes.md'), renderCodesMarkdown())
console.log('wrote manifest.schema.json, session.schema.json, docs/diagnostic-codes.md')
