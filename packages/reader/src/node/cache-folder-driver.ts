/**
 * The Node cache driver: one file per record under a folder (`<root>/f/<id>/<sha256>`, ...).
 * Writes are atomic (a temp file in the same folder, fsync, rename), so a crash leaves the old
 * record or the new one, never a torn file; stray temp files are ignored by `list`.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { CacheDriver } from '../cache/types'

const KEY = /^[a-z0-9]+(\/[a-z0-9]+)*$/

function pathOf(root: string, key: string): string {
  if (!KEY.test(key) || key.length > 200) throw new Error(`invalid cache key '${key}'`)
  return join(root, ...key.split('/'))
}

const missing = (e: unknown) => (e as NodeJS.ErrnoException)?.code === 'ENOENT'

/**
 * Creates a driver storing records as files under `root` (made when first written).
 *
 * @example
 * import { createFolderCacheDriver, createPackageCache } from '@spkg/reader/node'
 * const cache = createPackageCache(createFolderCacheDriver('/var/cache/spkg'))
 */
export function createFolderCacheDriver(root: string): CacheDriver {
  return {
    async read(key) {
      try {
        return new Uint8Array(await readFile(pathOf(root, key)))
      } catch (e) {
        if (missing(e)) return undefined
        throw e
      }
    },
    async write(key, bytes) {
      const file = pathOf(root, key)
      const dir = join(file, '..')
      await mkdir(dir, { recursive: true })
      const temp = join(dir, `tmp-${randomBytes(6).toString('hex')}.partial`)
      const handle = await open(temp, 'wx', 0o600)
      try {
        await handle.writeFile(bytes)
        await handle.sync()
        await handle.close()
        await rename(temp, file)
      } catch (e) {
        await handle.close().catch(() => undefined)
        await rm(temp, { force: true })
        throw e
      }
    },
    async remove(key) {
      await rm(pathOf(root, key), { force: true })
    },
    async list(prefix) {
      if (!prefix.endsWith('/')) throw new Error(`invalid cache prefix '${prefix}'`)
      const base = prefix.slice(0, -1)
      const out: string[] = []
      const walk = async (key: string): Promise<void> => {
        let names: import('node:fs').Dirent[]
        try {
          names = await readdir(pathOf(root, key), { withFileTypes: true })
        } catch (e) {
          if (missing(e) || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return
          throw e
        }
        for (const d of names) {
          if (!/^[a-z0-9]+$/.test(d.name)) continue
          if (d.isDirectory()) await walk(`${key}/${d.name}`)
          else if (d.isFile()) out.push(`${key}/${d.name}`)
        }
      }
      await walk(base)
      return out
    },
  }
}
