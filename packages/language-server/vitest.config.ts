import { spkgProject } from '../../tools/vitest-project.ts'

export default spkgProject('language-server', {
  include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
})
