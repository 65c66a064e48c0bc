/**
 * The CI skip check (tools/ci-skips.ts) on a fixture project with one skipped test: with `CI` set
 * the run fails and names the test; without `CI` it passes.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isCi } from './ci-skips.ts'

const fixture = join(import.meta.dirname, 'fixtures', 'ci-skips')
const vitest = join(import.meta.dirname, '..', 'node_modules', 'vitest', 'vitest.mjs')

function runFixture(extra: NodeJS.ProcessEnv, args: string[] = []) {
  // A clean environment: no CI and none of the variables of the Vitest run this test is part of.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => k !== 'CI' && !k.startsWith('VITEST') && k !== 'NODE_ENV'),
  )
  const r = spawnSync(process.execPath, [vitest, 'run', ...args], {
    cwd: fixture,
    env: { ...env, NO_COLOR: '1', ...extra },
    encoding: 'utf8',
  })
  return { status: r.status, out: `${r.stdout}${r.stderr}` }
}

describe('a skipped test in CI', () => {
  it('fails the run with CI set, naming the skipped test', () => {
    const { status, out } = runFixture({ CI: '1' })
    expect(out).toContain('1 test(s) were skipped')
    expect(out).toContain('tool.check.ts > a suite that needs tools > uses a tool that is missing')
    expect(status).toBe(1)
  })

  it('passes without CI', () => {
    const { status, out } = runFixture({})
    expect(out).toContain('1 skipped')
    expect(out).not.toContain('were skipped')
    expect(status).toBe(0)
  })

  it('only lists tests a -t name filter left out', () => {
    const { status, out } = runFixture({ CI: 'true' }, ['-t', 'is there'])
    expect(out).toContain('not run (name filter)')
    expect(status).toBe(0)
  })

  it('reads CI as GitHub Actions, GitLab and .ci/run set it', () => {
    expect(isCi({ CI: 'true' })).toBe(true)
    expect(isCi({ CI: '1' })).toBe(true)
    expect(isCi({ CI: 'false' })).toBe(false)
    expect(isCi({})).toBe(false)
  })
})
