/**
 * The project's home, in one place: the repository that `package.json` declares
 * (`repository.url`, the same in every published package and at the root). The GitHub action
 * (`action.yml` at that repository's root) is named from it, so `spkg init`'s workflow, the docs
 * and the package metadata cannot name different repositories (`project.test.ts` checks them).
 */
import pkg from '../package.json' with { type: 'json' }

/** `owner/name` of a GitHub repository URL (`git+https://github.com/owner/name.git` and the like). */
export function githubRepository(url: string): string {
  const m = /^(?:git\+)?https:\/\/github\.com\/([\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/.exec(url)
  if (!m) throw new Error(`package.json: repository.url '${url}' is not a GitHub repository URL`)
  return m[1] as string
}

/** The project's GitHub repository, `owner/name`. */
export const PROJECT_REPOSITORY: string = githubRepository(pkg.repository.url)

/** The major version tag of the action that workflows use (moved to each release of that major). */
export const ACTION_MAJOR_TAG = 'v1'

/** The GitHub action the workflow of `spkg init` uses: `action.yml` at the repository's root. */
export const ACTION_REF = `${PROJECT_REPOSITORY}@${ACTION_MAJOR_TAG}`
