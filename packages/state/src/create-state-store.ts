/**
 * The state store: saves reading states through a driver and loads them back validated. Loading
 * never throws on bad data; saving refuses to overwrite a state it has not seen (another device's
 * save) unless told to.
 */
import {
  createDiagnostic,
  type Diagnostic,
  isSpkgError,
  parseReadingStateText,
  type ReadingState,
  SpkgError,
} from '@spkg/manifest'
import { serializeReadingState } from './serialize-reading-state'
import type { StateDriver } from './types'

/** Options of {@link createStateStore}. */
export interface StateStoreOptions {
  /**
   * The story `id` being played (`manifest.id`, the UUID every reading state carries in its `id`):
   * a state of another story is refused on save (throws `state/other-story`, nothing is written) and
   * on load (a `state/other-story` diagnostic).
   */
  storyId?: string
  /** The package `version` being played: a loaded state of another version gets `state/other-version` (info). */
  version?: string
  /** Prefix of the driver keys, to share one driver between players. @default '' */
  prefix?: string
}

/** Options of {@link StateStore.save}. */
export interface SaveOptions {
  /**
   * Write only over this revision (`null`: only when nothing is stored).
   * @default the revision this store last loaded or saved for the key, else `null`
   */
  ifRevision?: string | null
  /** Overwrite whatever is stored (no compare-and-set). @default false */
  force?: boolean
  signal?: AbortSignal
}

/** What {@link StateStore.load} found. */
export interface LoadResult {
  /** The saved state, when one is stored and valid. */
  state?: ReadingState
  /** The stored revision (also when the stored state is invalid), for a later compare-and-set. */
  revision?: string
  diagnostics: Diagnostic[]
}

/** Saves, loads, lists and removes reading states; see {@link createStateStore}. */
export interface StateStore {
  readonly driver: StateDriver
  save(storyKey: string, state: ReadingState, options?: SaveOptions): Promise<{ revision: string }>
  load(storyKey: string, options?: { signal?: AbortSignal }): Promise<LoadResult>
  remove(storyKey: string, options?: { signal?: AbortSignal }): Promise<void>
  list(options?: { signal?: AbortSignal }): Promise<string[]>
}

/**
 * Creates a state store over a driver.
 *
 * - `load` validates through `parseReadingState` and never throws on corrupt or foreign data or on
 *   a storage failure (`state/storage-failed` diagnostic); it throws only when `signal` aborts.
 * - `save` validates first (and, with `storyId`, refuses a state of another story), then writes
 *   with compare-and-set against the revision last seen.
 *
 * @throws SpkgError from `save`: `state/invalid` (not a valid reading state), `state/other-story`
 *   (its `id` is not `storyId`; nothing is written), `state/conflict`
 *   (the stored state changed since this store saw it), `state/storage-failed`
 * @example
 * import { createStateStore } from '@spkg/state'
 * import { createMemoryDriver } from '@spkg/state/drivers/memory'
 * const store = createStateStore(createMemoryDriver(), { storyId: manifest.id })
 * const { state, diagnostics } = await store.load(manifest.id) // state undefined → start afresh
 * await store.save(manifest.id, run.snapshot())
 */
export function createStateStore(driver: StateDriver, options: StateStoreOptions = {}): StateStore {
  const prefix = options.prefix ?? ''
  /** Last revision seen per key; `null` means "seen absent". */
  const seen = new Map<string, string | null>()
  const parseOptions = { storyId: options.storyId, version: options.version }
  return {
    driver,
    async save(storyKey, state, saveOptions = {}) {
      const text = serializeReadingState(state)
      const key = prefix + storyKey
      if (options.storyId !== undefined && state.id !== options.storyId) {
        // What load would refuse is never written: the key would hold a state it cannot resume.
        const message = `the reading state belongs to story "${state.id}", not "${options.storyId}"; "${key}" was not written`
        const diagnostic = createDiagnostic('state/other-story', message, { field: '/id' })
        throw new SpkgError('state/other-story', message, { diagnostics: [diagnostic] })
      }
      const ifRevision = saveOptions.force
        ? undefined
        : saveOptions.ifRevision !== undefined
          ? saveOptions.ifRevision
          : (seen.get(key) ?? null)
      const { revision } = await driver.set(key, text, { ifRevision, signal: saveOptions.signal })
      seen.set(key, revision)
      return { revision }
    },
    async load(storyKey, loadOptions = {}) {
      const key = prefix + storyKey
      let stored: Awaited<ReturnType<StateDriver['get']>>
      try {
        stored = await driver.get(key, loadOptions)
      } catch (cause) {
        loadOptions.signal?.throwIfAborted()
        const message = isSpkgError(cause) ? cause.message : `${driver.name} could not read "${key}"`
        return { diagnostics: [createDiagnostic('state/storage-failed', message)] }
      }
      if (stored === undefined) {
        seen.set(key, null)
        return { diagnostics: [] }
      }
      seen.set(key, stored.revision)
      const { state, diagnostics } = parseReadingStateText(stored.value, parseOptions)
      return state
        ? { state, revision: stored.revision, diagnostics }
        : { revision: stored.revision, diagnostics }
    },
    async remove(storyKey, removeOptions = {}) {
      const key = prefix + storyKey
      await driver.remove(key, removeOptions)
      seen.set(key, null)
    },
    async list(listOptions = {}) {
      const keys = await driver.keys(listOptions)
      return keys.filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length))
    },
  }
}
