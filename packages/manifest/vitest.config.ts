import { spkgProject } from '../../tools/vitest-project.ts'

// The files of a worker share its modules (`isolate: false`, see the root vitest.config.ts): none of them mocks a
// module, stubs a global or leaves module state behind.
export default spkgProject('manifest', { isolate: false })
