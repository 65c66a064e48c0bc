/**
 * Filesystem driver: `<root>/packages/<sha256>.spkg`, `<root>/covers/<sha256>.<ext>`. Writes go to
 * `<root>/.tmp/<random>` (same filesystem), are hashed on the way, fsynced, then renamed into place and the
 * directory fsynced: a reader sees the whole file or none, and a crash leaves at most a temporary file, which
 * {@link FsStorage.removeStaleTemp} clears at start-up. Keys are checked against a strict pattern, so no key can
 * name a path outside the root.
 */
import { createHash, randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import {
  assertKey,
  type ByteRange,
  type FileStorage,
  isValidKey,
  keyContentType,
  keyHash,
  type ListedFile,
  type PutInfo,
  StorageError,
  type StoredFileInfo,
} from './types'

/** Options of {@link FsStorage}. */
export interface FsStorageOptions {
  /** The root folder (created when absent). */
  root: string
  /** FILES_URL: public addresses are `<filesUrl>/<key>`. */
  filesUrl?: string | undefined
}

const isNotFound = (err: unknown) => (err as NodeJS.ErrnoException)?.code === 'ENOENT'

/** Checks what a caller claims about a file against its key. */
export function checkPut(key: string, info: { sha256: string; contentType: string }): void {
  assertKey(key)
  if (info.sha256 !== keyHash(key))
    throw new StorageError('STORAGE_HASH_MISMATCH', `Key ${key} does not name the hash ${info.sha256}`)
  const expected = keyContentType(key)
  if (info.contentType !== expected)
    throw new StorageError(
      'STORAGE_BAD_KEY',
      `Key ${key} holds ${expected}, not ${JSON.stringify(info.contentType).slice(0, 80)}`,
    )
}

/** Throws STORAGE_BAD_RANGE unless `range` lies within a file of `size` bytes. */
export function checkRange(range: ByteRange, size: number): void {
  const { start, end } = range
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start || end >= size)
    throw new StorageError('STORAGE_BAD_RANGE', `Range ${start}-${end} is outside a file of ${size} bytes`)
}

/** The filesystem {@link FileStorage}. */
export class FsStorage implements FileStorage {
  readonly driver = 'fs' as const
  readonly root: string
  private readonly filesUrl: string | undefined
  private ready: Promise<void> | undefined

  constructor(options: FsStorageOptions) {
    this.root = options.root
    this.filesUrl = options.filesUrl?.replace(/\/+$/, '')
  }

  private dirs(): Promise<void> {
    this.ready ??= Promise.all(
      ['packages', 'covers', '.tmp'].map((d) => mkdir(join(this.root, d), { recursive: true })),
    ).then(
      () => undefined,
      (err) => {
        this.ready = undefined
        throw new StorageError('STORAGE_UNAVAILABLE', `Cannot create ${this.root}`, { cause: err })
      },
    )
    return this.ready
  }

  private path(key: string): string {
    assertKey(key)
    return join(this.root, key)
  }

  /** Writes `source` to a temporary file, hashing it, then renames it to `key` when the hash is right. */
  private async write(key: string, source: Readable | Uint8Array, sha256: string): Promise<void> {
    await this.dirs()
    const target = this.path(key)
    const existing = await stat(target).catch((err) =>
      isNotFound(err)
        ? null
        : Promise.reject(new StorageError('STORAGE_UNAVAILABLE', `Cannot stat ${key}`, { cause: err })),
    )
    if (existing) return // content-addressed: same key, same bytes
    const tmp = join(this.root, '.tmp', `${randomBytes(12).toString('hex')}.part`)
    const hash = createHash('sha256')
    try {
      if (source instanceof Uint8Array) {
        hash.update(source)
        const fh = await open(tmp, 'wx', 0o644)
        try {
          await fh.writeFile(source)
          await fh.sync()
        } finally {
          await fh.close()
        }
      } else {
        const hashing = new Transform({
          transform(chunk, _enc, cb) {
            hash.update(chunk)
            cb(null, chunk)
          },
        })
        const out = createWriteStream(tmp, { flags: 'wx', mode: 0o644, flush: true })
        await pipeline(source, hashing, out)
      }
      const actual = hash.digest('hex')
      if (actual !== sha256)
        throw new StorageError('STORAGE_HASH_MISMATCH', `Content of ${key} hashes to ${actual}`)
      await rename(tmp, target)
      await syncDir(join(this.root, key.slice(0, key.indexOf('/'))))
    } catch (err) {
      await rm(tmp, { force: true })
      if (err instanceof StorageError) throw err
      throw new StorageError('STORAGE_UNAVAILABLE', `Cannot store ${key}`, { cause: err })
    }
  }

  async putFile(key: string, localPath: string, info: PutInfo): Promise<void> {
    checkPut(key, info)
    const size = (await stat(localPath)).size
    if (size !== info.size)
      throw new StorageError('STORAGE_HASH_MISMATCH', `${localPath} has ${size} bytes, not ${info.size}`)
    await this.write(key, createReadStream(localPath), info.sha256)
  }

  async putBytes(key: string, bytes: Uint8Array, info: Omit<PutInfo, 'size'>): Promise<void> {
    checkPut(key, info)
    await this.write(key, bytes, info.sha256)
  }

  async stat(key: string): Promise<StoredFileInfo | null> {
    const p = this.path(key)
    try {
      const s = await stat(p)
      return { key, size: s.size, sha256: keyHash(key), contentType: keyContentType(key) }
    } catch (err) {
      if (isNotFound(err)) return null
      throw new StorageError('STORAGE_UNAVAILABLE', `Cannot stat ${key}`, { cause: err })
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable | null> {
    const p = this.path(key)
    let fh: Awaited<ReturnType<typeof open>>
    try {
      fh = await open(p, 'r')
    } catch (err) {
      if (isNotFound(err)) return null
      throw new StorageError('STORAGE_UNAVAILABLE', `Cannot read ${key}`, { cause: err })
    }
    try {
      if (range) checkRange(range, (await fh.stat()).size)
    } catch (err) {
      await fh.close()
      throw err
    }
    // The stream owns the handle (closed at end, error or destroy): a file deleted meanwhile stays readable.
    return fh.createReadStream(range ? { start: range.start, end: range.end } : {})
  }

  async delete(key: string): Promise<void> {
    const p = this.path(key)
    try {
      await unlink(p)
    } catch (err) {
      if (!isNotFound(err))
        throw new StorageError('STORAGE_UNAVAILABLE', `Cannot delete ${key}`, { cause: err })
    }
  }

  async list(prefix: 'packages/' | 'covers/', limit: number): Promise<ListedFile[]> {
    if (prefix !== 'packages/' && prefix !== 'covers/')
      throw new StorageError('STORAGE_BAD_KEY', `Not a storage prefix: ${String(prefix).slice(0, 40)}`)
    const dir = join(this.root, prefix)
    const out: ListedFile[] = []
    let names: string[]
    try {
      names = await readdir(dir)
    } catch (err) {
      if (isNotFound(err)) return out
      throw new StorageError('STORAGE_UNAVAILABLE', `Cannot list ${prefix}`, { cause: err })
    }
    for (const name of names) {
      if (out.length >= limit) break
      const key = prefix + name
      if (!isValidKey(key)) continue
      const s = await stat(join(dir, name)).catch(() => null)
      if (s) out.push({ key, size: s.size, modifiedAt: s.mtime })
    }
    return out
  }

  publicUrl(key: string): string | null {
    assertKey(key)
    return this.filesUrl ? `${this.filesUrl}/${key}` : null
  }

  /** Removes temporary files older than `olderThanMs` (left by a crash mid-write); returns how many. */
  async removeStaleTemp(olderThanMs: number, now = Date.now()): Promise<number> {
    const dir = join(this.root, '.tmp')
    const names = await readdir(dir).catch(() => [] as string[])
    let removed = 0
    for (const name of names) {
      const s = await stat(join(dir, name)).catch(() => null)
      if (s && now - s.mtimeMs >= olderThanMs) {
        await rm(join(dir, name), { force: true })
        removed++
      }
    }
    return removed
  }
}

async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r')
  try {
    await fh.sync()
  } catch {
    // some filesystems refuse fsync on a directory; the rename itself is atomic
  } finally {
    await fh.close()
  }
}
