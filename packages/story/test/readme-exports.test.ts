/**
 * The entry point lists its exports one by one, and the README names every one of them.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'

const pkg = join(import.meta.dirname, '..')

it('src/index.ts lists every export by name and the README documents each', () => {
  const index = readFileSync(join(pkg, 'src/index.ts'), 'utf8')
  expect(index).not.toMatch(/export\s+(type\s+)?\*/)
  const names = [...index.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)].flatMap((m) =>
    m[1]!
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean),
  )
  expect(names.length).toBeGreaterThan(40)
  const readme = readFileSync(join(pkg, 'README.md'), 'utf8')
  expect(names.filter((n) => !readme.includes(`\`${n}\``))).toEqual([])
})
