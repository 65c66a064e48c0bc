import { execFileSync, spawn } from 'node:child_process'
import {
  createReadStream,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { freshDir } from '../test/helpers/tree'
import type { CliIO } from './cli-types'
import { writeOutputAtomic } from './io'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const io = fileURLToPath(new URL('./io.ts', import.meta.url))

describe('writeOutputAtomic', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'leaves no temporary file behind when %s stops the write (Ctrl-C during spkg pack)',
    async (signal) => {
      const dir = freshDir()
      // A write that never finishes: the first chunk lands in the temporary file, then it waits.
      writeFileSync(
        join(dir, 'child.mts'),
        `import { writeOutputAtomic } from ${JSON.stringify(io)}
async function* slow() {
  yield new Uint8Array(64 * 1024)
  process.stdout.write('writing\\n')
  await new Promise(() => setInterval(() => {}, 1000))
}
await writeOutputAtomic({ cwd: ${JSON.stringify(dir)} } as never, 'out.spkg', slow())
`,
      )
      const child = spawn(
        process.execPath,
        ['--conditions=@spkg/source', '--import', 'tsx', join(dir, 'child.mts')],
        {
          cwd: root,
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      )
      const started = await new Promise<boolean>((resolve) => {
        child.stdout.once('data', () => resolve(true))
        child.once('exit', () => resolve(false))
      })
      expect(started).toBe(true)
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toHaveLength(1)
      child.kill(signal)
      const [code, by] = await new Promise<[number | null, string | null]>((resolve) =>
        child.on('exit', (c, s) => resolve([c, s])),
      )
      expect(by).toBe(signal) // still ended by the signal, as a shell expects (status 130 for Ctrl-C)
      expect(code).toBe(null)
      expect(readdirSync(dir).sort()).toEqual(['child.mts'])
    },
    60_000,
  )

  const cliIO = (cwd: string) => ({ cwd }) as CliIO

  it('writes into a pipe or device (-o /dev/stdout) instead of renaming a file over it', async () => {
    const dir = freshDir()
    const fifo = join(dir, 'out.fifo')
    execFileSync('mkfifo', [fifo])
    const received: Buffer[] = []
    const reading = new Promise<void>((resolve, reject) =>
      createReadStream(fifo)
        .on('data', (c) => received.push(c as Buffer))
        .on('end', resolve)
        .on('error', reject),
    )
    await writeOutputAtomic(cliIO(dir), 'out.fifo', 'PK bytes')
    await reading
    expect(Buffer.concat(received).toString()).toBe('PK bytes')
    expect(lstatSync(fifo).isFIFO()).toBe(true) // still the pipe, not a regular file
    expect(readdirSync(dir)).toEqual(['out.fifo'])
  })

  it('keeps the old file and leaves no temporary file when the write fails midway', async () => {
    const dir = freshDir()
    writeFileSync(join(dir, 'inn.spkg'), 'the old package')
    async function* failing() {
      yield new Uint8Array(64 * 1024)
      throw Object.assign(new Error('no space left'), { code: 'ENOSPC' })
    }
    await expect(writeOutputAtomic(cliIO(dir), 'inn.spkg', failing())).rejects.toThrow(
      "cannot write 'inn.spkg': no space left on the device",
    )
    expect(readFileSync(join(dir, 'inn.spkg'), 'utf8')).toBe('the old package')
    expect(readdirSync(dir)).toEqual(['inn.spkg'])
    // A new file is not created at all.
    await expect(writeOutputAtomic(cliIO(dir), 'new.spkg', failing())).rejects.toThrow()
    expect(readdirSync(dir)).toEqual(['inn.spkg'])
  })

  it('follows a symbolic link: the file it points to is replaced, the link stays', async () => {
    const dir = freshDir()
    mkdirSync(join(dir, 'real'))
    writeFileSync(join(dir, 'real/inn.spkg'), 'old')
    symlinkSync('real/inn.spkg', join(dir, 'latest.spkg'))
    await writeOutputAtomic(cliIO(dir), 'latest.spkg', 'new')
    expect(lstatSync(join(dir, 'latest.spkg')).isSymbolicLink()).toBe(true)
    expect(readFileSync(join(dir, 'real/inn.spkg'), 'utf8')).toBe('new')
    expect(readdirSync(join(dir, 'real'))).toEqual(['inn.spkg'])
  })
})
