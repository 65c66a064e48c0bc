import { spkgProject } from '../../tools/vitest-project.ts'

// The files of a worker share its modules (`isolate: false`, see the root vitest.config.ts): none of them mocks a
// module or stubs a global; ed25519.test.ts and verify-package-signature.test.ts, which spy on crypto.subtle and
// need fresh copies of ed25519.ts, restore their spies and reset the modules after each test, and the tests that
// force a backend unset it.
export default spkgProject('integrity', { isolate: false })
