/**
 * With `CI` set, a skipped test fails the run. Tests that need a tool (zip, 7zz, bsdtar, Chromium,
 * signify-openbsd, Python, PostgreSQL, Redis...) skip themselves when it is missing, which is right on
 * a laptop and wrong in CI, where `.ci/run` installs them all: a skip there means a check silently
 * did not run. The reporter lists every skipped test (file, full name, the `ctx.skip(note)` note) and
 * sets the exit code to 1. Skips caused by a `-t` name filter are only listed. The root
 * `vitest.config.ts` adds it through {@link ciReporters}; a `--reporter` flag on the command line
 * replaces configured reporters, and this one with them.
 */
import { relative } from 'node:path'
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node'

export const isCi = (env: NodeJS.ProcessEnv = process.env) =>
  env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0'

export class FailOnSkipReporter implements Reporter {
  #vitest: Vitest | undefined

  onInit(vitest: Vitest): void {
    this.#vitest = vitest
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, _errors: unknown, reason: TestRunEndReason): void {
    if (reason === 'interrupted') return
    const root = this.#vitest?.config.root ?? process.cwd()
    const skipped: string[] = []
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const result = test.result()
        if (result.state !== 'skipped') continue
        const note = result.note ? ` (${result.note})` : ''
        skipped.push(`${relative(root, module.moduleId)} > ${test.fullName}${note}`)
      }
    }
    if (skipped.length === 0) return
    const list = skipped.map((s) => `  - ${s}`).join('\n')
    if (this.#vitest?.config.testNamePattern !== undefined) {
      console.log(`\n${skipped.length} test(s) not run (name filter):\n${list}`)
      return
    }
    console.error(
      `\nCI is set and ${skipped.length} test(s) were skipped; in CI every test must run ` +
        `(install the tool it needs: see .ci/run):\n${list}\n`,
    )
    process.exitCode = 1
  }
}

/** The reporters of the root config: the default one, and the skip check when CI is set. */
export function ciReporters(env: NodeJS.ProcessEnv = process.env): Array<string | Reporter> {
  return isCi(env) ? ['default', new FailOnSkipReporter()] : ['default']
}
