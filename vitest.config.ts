import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { ciReporters } from './tools/ci-skips.ts'

/**
 * The projects whose files take longest (a real server, Chromium, PostgreSQL per file): started first, so that the
 * run does not end on one long file while the other workers sit idle. Vitest's own order runs the projects by name
 * (api, ..., player, ..., validator) and, without a results cache (a fresh clone in CI), each project's files by size.
 */
const SLOW_PROJECTS_FIRST = ['player', 'api']

/**
 * A project with `isolate: false` (manifest, story, integrity: their files spend longer importing zod, the schemas
 * and the parser than testing) lets a worker run its next file in the same process, with the modules already
 * loaded, but only when that next file in the queue is of the same project. Its files are therefore queued
 * together, where its first file would have been.
 */
class SlowProjectsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOW_PROJECTS_FIRST.indexOf(f.project.name)
      return i === -1 ? SLOW_PROJECTS_FIRST.length : i
    }
    const sorted = await super.sort(files)
    const position = new Map<TestSpecification, number>()
    const firstOfProject = new Map<string, number>()
    for (const [i, f] of sorted.entries()) {
      const shared = f.project.config.isolate === false
      if (shared && !firstOfProject.has(f.project.name)) firstOfProject.set(f.project.name, i)
      position.set(f, shared ? firstOfProject.get(f.project.name)! : i)
    }
    // Array.prototype.sort is stable: within a rank, Vitest's order (failed, then longest first, from its cache).
    return sorted.sort((a, b) => rank(a) - rank(b) || position.get(a)! - position.get(b)!)
  }
}

// One run for the whole workspace: every package and app is a Vitest project
// (Vitest 4 replaced `vitest.workspace.ts` by `test.projects`).
// With CI set, a skipped test fails the run (tools/ci-skips.ts): CI installs every tool tests need.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'bench', 'tools'],
    reporters: ciReporters(),
    // Vitest's default is one worker fewer than the CPUs: a single worker on CI's 2 cores, which ran every file one
    // after the other while most of them wait on a server, a browser or a database. At least 2.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: SlowProjectsFirst },
  },
})
