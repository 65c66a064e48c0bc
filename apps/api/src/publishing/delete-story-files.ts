/**
 * Deleting a story removes the files of its versions that nothing else references, AFTER the database change has
 * committed (src/storage/index.ts explains the order): `keysBefore` is read before the delete, `removeAfter` runs
 * once the row (and, by cascade, its versions) is gone. A crash between the two leaves unreferenced files, which the
 * sweep removes (at start-up and every `SWEEP_INTERVAL_MS`); never a record whose file is gone.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../db/index'
import { isReferencedInDb } from '../storage/access'
import { deleteUnreferenced, type FileStorage } from '../storage/index'
import { storageKeysOfStory } from './versions-db'

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
