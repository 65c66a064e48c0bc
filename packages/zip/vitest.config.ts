import { spkgProject } from '../../tools/vitest-project.ts'

export default spkgProject('zip')
