import { spkgProject } from '../tools/vitest-project.ts'

// The benchmarks' own helpers are tested here; the benchmarks themselves run with `pnpm bench`.
export default spkgProject('bench', { include: ['**/*.test.ts'], exclude: ['node_modules/**'] })
