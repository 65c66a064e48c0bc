/**
 * The storage-driver contract: a small key-value store of text with revisions, so a state
 * store can refuse a stale write instead of silently overwriting another device's save.
 */

/** A stored value and the revision it was written at. */
export interface StoredValue {
  /** The stored text (a serialized reading state). */
  value: string
  /** Opaque revision of this value; changes on every write. */
  revision: string
}

/** Options of {@link StateDriver.set}. */
export interface DriverSetOptions {
  /**
   * Compare-and-set: write only if the stored revision is this one (`null`: only if nothing is
   * stored). Otherwise the write fails with an `SpkgError` of code `state/conflict`.
   * @default undefined (write unconditionally)
   */
  ifRevision?: string | null
  signal?: AbortSignal
}

/** Options of the reading operations. */
export interface DriverReadOptions {
  signal?: AbortSignal
}

/**
 * One storage backend. Every operation is atomic: a `set` interrupted midway leaves the previous
 * value readable. Failures throw an `SpkgError` with code `state/conflict` (lost compare-and-set)
 * or `state/storage-failed` (anything the backend refused).
 */
export interface StateDriver {
  /** Short name for messages (`memory`, `local-storage`, `indexeddb`, `fs`, `http`). */
  readonly name: string
  /** The stored value under `key`, or `undefined`. */
  get(key: string, options?: DriverReadOptions): Promise<StoredValue | undefined>
  /** Stores `value` under `key` and returns the new revision. */
  set(key: string, value: string, options?: DriverSetOptions): Promise<{ revision: string }>
  /** Deletes `key`; deleting a missing key is not an error. */
  remove(key: string, options?: DriverReadOptions): Promise<void>
  /** Every stored key (in no particular order). */
  keys(options?: DriverReadOptions): Promise<string[]>
}
