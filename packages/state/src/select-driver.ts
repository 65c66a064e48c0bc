/**
 * Maps the manifest's `storage` field to a driver: `none` keeps states in memory only (nothing
 * outlives the session), `local` uses IndexedDB (else `localStorage`) in browsers, `cloud` the
 * driver the host passes (the API client). In Node, `@spkg/state/node` maps `local` to files.
 */
import { createDiagnostic, type Diagnostic } from '@spkg/manifest'
import { createIndexedDbDriver } from './drivers/indexeddb'
import { createLocalStorageDriver } from './drivers/local-storage'
import { createMemoryDriver } from './drivers/memory'
import type { StateDriver } from './types'

/** The values of the manifest `storage` field. */
export type StorageMode = 'none' | 'local' | 'cloud'

/** Options of {@link selectStateDriver}. */
export interface SelectStateDriverOptions {
  /** Driver for `cloud` (typically `createHttpDriver` or the API client's driver). */
  cloud?: StateDriver
  /** Driver for `local`, replacing the browser default (IndexedDB, else `localStorage`). */
  local?: StateDriver
  /** IndexedDB database name of the browser default. @default 'spkg-state' */
  database?: string
}

/** The driver picked for a storage mode, and why it differs from the request when it does. */
export interface SelectedDriver {
  driver: StateDriver
  /** Whether states outlive the session with this driver. */
  persistent: boolean
  diagnostics: Diagnostic[]
}

/**
 * Picks the driver for a manifest `storage` value (absent means `local`). Never throws: an
 * unavailable mode falls back (cloud → local → memory) with a `state/storage-unavailable` warning.
 *
 * @example
 * const { driver } = selectStateDriver(manifest.storage, { cloud: createHttpDriver({ baseUrl }) })
 * const store = createStateStore(driver, { storyId: manifest.id })
 */
export function selectStateDriver(
  storage: StorageMode | undefined,
  options: SelectStateDriverOptions = {},
): SelectedDriver {
  const diagnostics: Diagnostic[] = []
  if (storage === 'none') return { driver: createMemoryDriver(), persistent: false, diagnostics }
  if (storage === 'cloud') {
    if (options.cloud) return { driver: options.cloud, persistent: true, diagnostics }
    diagnostics.push(
      createDiagnostic(
        'state/storage-unavailable',
        'storage "cloud" needs a cloud driver; saving locally instead',
        {
          path: 'manifest.json',
          field: '/storage',
        },
      ),
    )
  }
  if (options.local) return { driver: options.local, persistent: true, diagnostics }
  const g = globalThis as { indexedDB?: IDBFactory; localStorage?: Storage }
  if (g.indexedDB) {
    return { driver: createIndexedDbDriver({ database: options.database }), persistent: true, diagnostics }
  }
  if (hasLocalStorage(g)) return { driver: createLocalStorageDriver(), persistent: true, diagnostics }
  diagnostics.push(
    createDiagnostic(
      'state/storage-unavailable',
      'no local storage in this runtime; states last for this session only',
      {
        path: 'manifest.json',
        field: '/storage',
      },
    ),
  )
  return { driver: createMemoryDriver(), persistent: false, diagnostics }
}

function hasLocalStorage(g: { localStorage?: Storage }): boolean {
  try {
    // Reading the property throws in sandboxed frames and with storage blocked.
    return g.localStorage !== undefined && g.localStorage !== null
  } catch {
    return false
  }
}
