/**
 * @spkg/state: saving, resuming and storing reading states. The state shape itself is
 * `ReadingStateSchema` in `@spkg/manifest/schemas`; drivers live at subpaths (`@spkg/state/drivers/*`,
 * and Node-only files at `@spkg/state/node`).
 */
export type { LoadResult, SaveOptions, StateStore, StateStoreOptions } from './create-state-store'
export { createStateStore } from './create-state-store'
export type { SelectedDriver, SelectStateDriverOptions, StorageMode } from './select-driver'
export { selectStateDriver } from './select-driver'
export { serializeReadingState } from './serialize-reading-state'
export type { DriverReadOptions, DriverSetOptions, StateDriver, StoredValue } from './types'
