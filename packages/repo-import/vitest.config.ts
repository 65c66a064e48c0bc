import { spkgProject } from '../../tools/vitest-project.ts'

export default spkgProject('repo-import', {
  include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
})
