import { spkgProject } from '../../tools/vitest-project.ts'

export default spkgProject('player', {
  globalSetup: ['test/e2e/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 180_000,
})
