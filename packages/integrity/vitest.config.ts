import { spkgProject } from '../../tools/vitest-project.ts'

// The files of a worker share its modules (`isolate: false`, see the root vitest.config.ts): none of them mocks a
// module or stubs a global; ed25519.test.ts, which spies on crypto.subtle and needs fresh copies of ed25519.ts,
// restores its spies and resets the modules after each test, and the tests that force a backend unset it.
export default spkgProject('integrity', { isolate: false })
