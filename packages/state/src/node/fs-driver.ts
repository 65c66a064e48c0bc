/**
 * The file driver (Node): one file per key in a directory, holding exactly the saved text.
 * Writes go through {@link writeFileAtomic}, and a compare-and-set holds a lock file so two
 * processes cannot both win. The revision is a SHA-256 of the content (an ETag).
 */
import { createHash } from 'node:crypto'
import { mkdir, open, readdir, readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { conflictError, revisionMatches, storageError, throwIfAborted } from '../errors'
import type { StateDriver, StoredValue } from '../types'
import { writeFileAtomic } from './write-file-atomic'

/** Options of {@link createFsDriver}. */
export interface FsDriverOptions {
  /** Directory of the state files; created on first write. */
  dir: string
  /** A lock file older than this is taken as left by a crashed process. @default 10000 */
  staleLockMs?: number
}

const SUFFIX = '.json'
const MAX_NAME = 200

/** File name of a key: percent-encoded, dots and stars too, so no key can name `..` or a device. */
export function fileNameOf(key: string): string {
  const name = encodeURIComponent(key).replace(
    /[.*!'()~]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  return name + SUFFIX
}

function keyOf(file: string): string | undefined {
  if (!file.endsWith(SUFFIX) || file.startsWith('.')) return undefined
  try {
    return decodeURIComponent(file.slice(0, -SUFFIX.length))
  } catch {
    return undefined
  }
}

const revisionOf = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Creates a driver storing each key as `<dir>/<encoded key>.json`.
 *
 * @throws SpkgError `state/storage-failed` from each operation the file system refuses; `state/conflict` from `set`
 * @example
 * import { createFsDriver } from '@spkg/state/node'
 * const store = createStateStore(createFsDriver({ dir: '.spkg/saves' }))
 */
export function createFsDriver(options: FsDriverOptions): StateDriver {
  const staleLockMs = options.staleLockMs ?? 10_000
  const pathOf = (key: string) => {
    const name = fileNameOf(key)
    if (name.length > MAX_NAME)
      throw new Error(`the key is too long for a file name (${name.length} > ${MAX_NAME})`)
    return join(options.dir, name)
  }
  const read = async (key: string): Promise<StoredValue | undefined> => {
    try {
      const value = await readFile(pathOf(key), 'utf8')
      return { value, revision: revisionOf(value) }
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw cause
    }
  }
  const withLock = async <T>(file: string, fn: () => Promise<T>): Promise<T> => {
    const lock = `${file}.lock`
    for (let attempt = 0; ; attempt++) {
      try {
        await (await open(lock, 'wx')).close()
        break
      } catch (cause) {
        if ((cause as NodeJS.ErrnoException).code !== 'EEXIST') throw cause
        const age = await stat(lock).then(
          (s) => Date.now() - s.mtimeMs,
          () => 0,
        )
        if (age > staleLockMs) await rm(lock, { force: true })
        else if (attempt > 200) throw new Error('the state file stays locked by another process')
        else await sleep(10)
      }
    }
    try {
      return await fn()
    } finally {
      await rm(lock, { force: true })
    }
  }
  return {
    name: 'fs',
    async get(key, opts) {
      throwIfAborted(opts?.signal)
      try {
        return await read(key)
      } catch (cause) {
        throw storageError('fs', 'read', key, cause)
      }
    },
    async set(key, value, opts) {
      throwIfAborted(opts?.signal)
      try {
        const file = pathOf(key)
        await mkdir(options.dir, { recursive: true })
        return await withLock(file, async () => {
          if (opts?.ifRevision !== undefined) {
            const current = (await read(key))?.revision
            if (!revisionMatches(opts.ifRevision, current)) {
              throw conflictError('fs', key, opts.ifRevision, current)
            }
          }
          await writeFileAtomic(file, value)
          return { revision: revisionOf(value) }
        })
      } catch (cause) {
        throw storageError('fs', 'write', key, cause)
      }
    },
    async remove(key, opts) {
      throwIfAborted(opts?.signal)
      try {
        await rm(pathOf(key), { force: true })
      } catch (cause) {
        throw storageError('fs', 'remove', key, cause)
      }
    },
    async keys(opts) {
      throwIfAborted(opts?.signal)
      try {
        const files = await readdir(options.dir).catch((cause: NodeJS.ErrnoException) => {
          if (cause.code === 'ENOENT') return [] as string[]
          throw cause
        })
        return files.map(keyOf).filter((k): k is string => k !== undefined)
      } catch (cause) {
        throw storageError('fs', 'list keys', undefined, cause)
      }
    },
  }
}
