/**
 * The encrypted side of a delta update, in a file of its own so that `update-package.ts` loads it
 * with a dynamic `import()` of this file: a dynamic import of the whole `@spkg/integrity/encrypt`
 * namespace would keep the container code in the initial chunk of an esbuild bundle
 * (bench/bundle/weigh.test.ts), where a named static import here keeps it lazy.
 */
import { openEncryptedPackage } from '@spkg/integrity/encrypt'

export { openEncryptedPackage }
