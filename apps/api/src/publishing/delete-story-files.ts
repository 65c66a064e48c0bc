/**
 * Deleting a story removes the files of its versions that nothing else references, AFTER the database change has
 * committed (src/storage/create-storage.ts explains the order): `keysBefore` is read before the delete, `removeAfter` runs
 * once the row (and, by cascade, its versions) is gone. A crash between the two leaves unreferenced files, which the
 * sweep removes (at start-up and every `SWEEP_INTERVAL_MS`); never a record whose file is gone.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../db/connection'
import { isReferencedInDb } from '../db/file-access'
import { storageKeysOfStory } from '../db/versions'
import { deleteUnreferenced, type FileStorage } from '../storage/create-storage'

/** The files of a story's versions; call before deleting it. */
export const keysBefore = storageKeysOfStory

/** Removes `keys` no committed version names any more; failures are logged and left to the sweep. */
export async function removeAfter(
  db: Db,
  storage: FileStorage,
  keys: string[],
  log: FastifyBaseLogger,
): Promise<void> {
  if (keys.length === 0) return
  const { failed } = await deleteUnreferenced(storage, keys, isReferencedInDb(db))
  for (const f of failed)
    log.warn({ key: f.key }, 'storage: a file of a deleted story could not be removed (swept later)')
}
