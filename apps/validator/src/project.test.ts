/**
 * The project's home is declared once (`repository` in package.json) and everything that names it
 * agrees: every published package and the root declare the same repository, homepage and issue
 * tracker; the action that `spkg init`'s workflow uses is that repository's root `action.yml`;
 * the author's guide shows the same `uses:` line.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { initWorkflow } from './commands/init-run'
import { ACTION_MAJOR_TAG, ACTION_REF, githubRepository, PROJECT_REPOSITORY } from './project'

const ROOT = join(__dirname, '../../..')
const read = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'))

/** Every package.json that is published (not private), relative to the root. */
const published = ['packages', 'apps']
  .flatMap((d) => readdirSync(join(ROOT, d)).map((n) => `${d}/${n}`))
  .filter(
    (dir) => existsSync(join(ROOT, dir, 'package.json')) && read(`${dir}/package.json`).private !== true,
  )

describe('the project repository', () => {
  const root = read('package.json')
  const url = `https://github.com/${PROJECT_REPOSITORY}`

  it('is the root package.json’s repository, named by its GitHub owner/name', () => {
    expect(root.repository).toEqual({ type: 'git', url: `git+${url}.git` })
    expect(root.homepage).toBe(`${url}#readme`)
    expect(root.bugs).toEqual({ url: `${url}/issues` })
    expect(githubRepository(root.repository.url)).toBe(PROJECT_REPOSITORY)
    expect(() => githubRepository('https://example.com/a/b.git')).toThrow(/not a GitHub repository/)
  })

  it('is declared by every published package, with its folder', () => {
    expect(published).toContain('apps/validator')
    expect(published).toContain('packages/language-server')
    for (const dir of published) {
      const pkg = read(`${dir}/package.json`)
      expect(pkg.repository, dir).toEqual({ type: 'git', url: root.repository.url, directory: dir })
      expect(pkg.homepage, dir).toBe(`${url}/tree/main/${dir}#readme`)
      expect(pkg.bugs, dir).toEqual(root.bugs)
      expect(existsSync(join(ROOT, dir, 'README.md')), `${dir}/README.md`).toBe(true)
    }
  })

  it('holds the action spkg init’s workflow and the guide use, at its root', () => {
    expect(ACTION_REF).toBe(`${PROJECT_REPOSITORY}@${ACTION_MAJOR_TAG}`)
    // `owner/name@ref` with no path names the action.yml at the repository's root.
    expect(ACTION_REF).toMatch(/^[\w.-]+\/[\w.-]+@[\w.-]+$/)
    expect(existsSync(join(ROOT, 'action.yml'))).toBe(true)
    const uses = [...initWorkflow('.').matchAll(/^\s*- uses: (\S+)$/gm)].map((m) => m[1])
    expect(uses).toContain(ACTION_REF)
    expect(uses.filter((u) => !u?.startsWith('actions/'))).toEqual([ACTION_REF])
    const guide = readFileSync(join(ROOT, 'docs/writing-stories.md'), 'utf8')
    const guideUses = [...guide.matchAll(/- uses: (\S+)/g)].map((m) => m[1])
    expect(guideUses.filter((u) => !u?.startsWith('actions/'))).toEqual([ACTION_REF])
    expect(read('editors/vscode/package.json').repository.url).toBe(root.repository.url)
  })
})
