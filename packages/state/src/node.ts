/**
 * @spkg/state/node: the Node-only file driver, atomic file writes, and the `storage` mapping
 * where `local` means a directory of files.
 */
export type { FsDriverOptions } from './node/fs-driver'
export { createFsDriver, fileNameOf } from './node/fs-driver'
export type { SelectNodeStateDriverOptions } from './node/select-node-driver'
export { selectNodeStateDriver } from './node/select-node-driver'
export { writeFileAtomic } from './node/write-file-atomic'
