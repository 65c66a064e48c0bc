import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { testStateDriver } from '../../test/helpers/test-state-driver'
import { createFsDriver, fileNameOf } from './fs-driver'

const dirs: string[] = []
const freshDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'spkg-state-'))
  dirs.push(dir)
  return dir
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })))
})

testStateDriver('fs', async () => createFsDriver({ dir: join(await freshDir(), 'saves') }))

describe('fs driver files', () => {
  it('stores exactly the saved text, one file per key, and leaves no temp or lock file', async () => {
    const dir = await freshDir()
    const d = createFsDriver({ dir })
    await d.set('story/0001.sty', '{"format":1}')
    expect(await readdir(dir)).toEqual([fileNameOf('story/0001.sty')])
    expect(await readFile(join(dir, fileNameOf('story/0001.sty')), 'utf8')).toBe('{"format":1}')
  })

  it.each(['..', '../x', 'a/b', 'C:\\x', '.hidden', 'x.json.lock'])(
    'keeps key %j inside the directory',
    (key) => {
      const name = fileNameOf(key)
      expect(name).not.toMatch(/[/\\]/)
      expect(name.startsWith('.')).toBe(false)
      expect(name.endsWith('.json')).toBe(true)
    },
  )

  it('ignores a leftover temp file of a crashed save and keeps the previous state', async () => {
    const dir = await freshDir()
    const d = createFsDriver({ dir })
    await d.set('k', 'previous')
    // What a process killed between write and rename leaves behind.
    await writeFile(join(dir, `.${fileNameOf('k')}.abc123.tmp`), '{"half":')
    expect((await d.get('k'))?.value).toBe('previous')
    expect(await d.keys()).toEqual(['k'])
  })

  it('takes over a stale lock left by a crashed process', async () => {
    const dir = await freshDir()
    const d = createFsDriver({ dir, staleLockMs: 10_000 })
    await writeFile(join(dir, `${fileNameOf('k')}.lock`), '')
    // The lock's age is Date.now() minus its mtime: 11 s later (fake Date, real file system), it is stale.
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(Date.now() + 11_000)
      await d.set('k', 'after crash')
    } finally {
      vi.useRealTimers()
    }
    expect((await d.get('k'))?.value).toBe('after crash')
    expect(await readdir(dir)).toEqual([fileNameOf('k')])
  })

  it('reports a directory it cannot create as state/storage-failed', async () => {
    const dir = await freshDir()
    await writeFile(join(dir, 'file'), 'x')
    const d = createFsDriver({ dir: join(dir, 'file', 'sub') })
    await expect(d.set('k', 'v')).rejects.toMatchObject({ code: 'state/storage-failed' })
    await expect(d.get('k')).rejects.toMatchObject({ code: 'state/storage-failed' })
  })
})
