/**
 * Crash-safe file replacement: write a temp file in the same directory, fsync it, rename it over
 * the target, fsync the directory. Readers see the old file or the new one, never a torn one.
 */
import { randomBytes } from 'node:crypto'
import { open, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/**
 * Replaces `file` with `data` atomically (temp file + fsync + rename + directory fsync).
 *
 * @throws the file-system error when the directory is missing or not writable (the target is untouched)
 * @example
 * await writeFileAtomic('saves/story.json', JSON.stringify(state))
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(file)
  const temp = join(dir, `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`)
  const handle = await open(temp, 'wx', 0o600)
  try {
    await handle.writeFile(data)
    await handle.sync()
  } catch (cause) {
    await handle.close().catch(() => undefined)
    await rm(temp, { force: true })
    throw cause
  }
  await handle.close()
  try {
    await rename(temp, file)
  } catch (cause) {
    await rm(temp, { force: true })
    throw cause
  }
  await syncDirectory(dir)
}

async function syncDirectory(dir: string): Promise<void> {
  // Makes the rename itself durable; some platforms (Windows) cannot open a directory: skip there.
  let handle: Awaited<ReturnType<typeof open>> | undefined
  try {
    handle = await open(dir, 'r')
    await handle.sync()
  } catch {
    // best effort
  } finally {
    await handle?.close().catch(() => undefined)
  }
}
