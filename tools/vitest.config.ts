import { spkgProject } from './vitest-project.ts'

// Repository-wide checks (dependency direction, packaging).
export default spkgProject('tools', { include: ['*.test.ts'] })
