import type { SelectedDriver, StorageMode } from '../select-driver'
import { selectStateDriver } from '../select-driver'
import type { StateDriver } from '../types'
import { createFsDriver } from './fs-driver'

/** Options of {@link selectNodeStateDriver}. */
export interface SelectNodeStateDriverOptions {
  /** Directory of the state files for `local`. */
  dir: string
  /** Driver for `cloud`. */
  cloud?: StateDriver
}

/**
 * The Node mapping of the manifest `storage` field: `local` (and absent) → files in `dir`,
 * `none` → memory, `cloud` → the given driver (else files, with a warning).
 *
 * @example
 * const { driver } = selectNodeStateDriver(manifest.storage, { dir: '.spkg/saves' })
 */
export function selectNodeStateDriver(
  storage: StorageMode | undefined,
  options: SelectNodeStateDriverOptions,
): SelectedDriver {
  return selectStateDriver(storage, { cloud: options.cloud, local: createFsDriver({ dir: options.dir }) })
}
