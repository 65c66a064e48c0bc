/**
 * `pnpm typecheck` (tools/typecheck.ts) runs three programs instead of one per package. This test fails when that
 * would check less than each package's own tsconfig.json (`pnpm --filter <package> typecheck`) does:
 * - a file a workspace tsconfig.json names (root, packages/*, apps/*, bench/) that no program of
 *   `pnpm typecheck` names with exactly the same compiler options (a package that sets its own options needs its
 *   own program, as apps/player has);
 * - a `declare global` or `declare module` in the shared program (tsconfig.typecheck.json), where it would
 *   reach every package's files and not only its own package's.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { TYPECHECK_PROGRAMS } from './typecheck.ts'

const root = join(import.meta.dirname, '..')

function parse(config: string) {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(root, config), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    },
  })
  if (!parsed) throw new Error(`cannot read ${config}`)
  expect(parsed.errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([])
  const { configFilePath: _, ...options } = parsed.options
  return { files: parsed.fileNames.map((f) => relative(root, f)), options }
}

const workspaceConfigs = [
  'tsconfig.json',
  'bench/tsconfig.json',
  ...['packages', 'apps'].flatMap((dir) =>
    readdirSync(join(root, dir), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `${dir}/${d.name}/tsconfig.json`),
  ),
]
const programs = TYPECHECK_PROGRAMS.map((config) => ({ config, ...parse(config) }))

describe('pnpm typecheck', () => {
  it.each(workspaceConfigs)('checks every file of %s with its options', (config) => {
    const own = parse(config)
    const unchecked = own.files.filter(
      (file) =>
        !programs.some(
          (p) => p.files.includes(file) && JSON.stringify(p.options) === JSON.stringify(own.options),
        ),
    )
    expect(own.files.length).toBeGreaterThan(0)
    expect(unchecked).toEqual([])
  })

  it('has no global or module declaration in the program the packages share', () => {
    const shared = programs.find((p) => p.config === 'tsconfig.typecheck.json')!
    const declaring = shared.files.filter((file) =>
      /^\s*declare\s+(global\b|module\s+['"])/m.test(readFileSync(join(root, file), 'utf8')),
    )
    expect(declaring).toEqual([])
  })
})
