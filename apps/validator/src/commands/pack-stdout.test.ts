import { spawn } from 'node:child_process'
import { closeSync, lstatSync, openSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { openPackage } from '@spkg/reader/node'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'
import { centralDirectory, freshDir, storyTree, writeTree } from '../../test/helpers/tree'

const root = fileURLToPath(new URL('../../../..', import.meta.url))
// The loader by its address, so the child runs in the story's temporary folder.
const tsx = pathToFileURL(createRequire(join(root, 'package.json')).resolve('tsx')).href
const bin = fileURLToPath(new URL('../bin.ts', import.meta.url))

/** Runs the real `spkg` binary with its standard output on a pipe, as `spkg ... | cat > x` does. */
function spawnSpkg(
  args: string[],
  cwd: string,
): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  const child = spawn(process.execPath, ['--conditions=@spkg/source', '--import', tsx, bin, ...args], {
    cwd,
    env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const out: Buffer[] = []
  let stderr = ''
  child.stdout.on('data', (c: Buffer) => out.push(c))
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d
  })
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr })),
  )
}

describe('spkg pack to standard output', () => {
  // A folder with a warning, so there is human output to keep out of the archive.
  const folder = () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree({ id: 'inn-001' }))
    return cwd
  }

  it.each(['-', '/dev/stdout'])(
    'writes only the archive bytes with -o %s (findings and the result line go to stderr)',
    async (out) => {
      const devStdout = lstatSync('/dev/stdout', { throwIfNoEntry: false })?.isSymbolicLink()
      const cwd = folder()
      const piped = await spawnSpkg(['pack', 'inn', '-o', out], cwd)
      expect(piped.stderr).toMatch(/^manifest\.json: warning manifest\/invalid-id: /m)
      expect(piped.stderr).toMatch(
        /^wrote standard output: 4 entries \(3 deflated, 1 stored\), \d+ bytes; 1 warning/m,
      )
      expect(piped.code).toBe(0)
      const file = await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })
      expect(file.code).toBe(0)
      expect(new Uint8Array(piped.stdout)).toEqual(new Uint8Array(readFileSync(join(cwd, 'inn.spkg'))))
      expect(centralDirectory(new Uint8Array(piped.stdout)).map((e) => e.name)[0]).toBe('manifest.json')
      const opened = await openPackage(new Uint8Array(piped.stdout))
      expect(opened.ok).toBe(true)
      // Nothing written beside the folder, and /dev/stdout is still the link it was.
      expect(readdirSync(cwd).sort()).toEqual(['inn', 'inn.spkg'])
      expect(lstatSync('/dev/stdout', { throwIfNoEntry: false })?.isSymbolicLink()).toBe(devStdout)
    },
    60_000,
  )

  it('writes the archive into the file standard output is redirected to (spkg pack -o /dev/stdout > x)', async () => {
    const cwd = folder()
    const fd = openSync(join(cwd, 'redirected.spkg'), 'w')
    const child = spawn(
      process.execPath,
      ['--conditions=@spkg/source', '--import', tsx, bin, 'pack', 'inn', '-o', '/dev/stdout'],
      { cwd, env: { ...process.env, NODE_OPTIONS: '' }, stdio: ['ignore', fd, 'ignore'] },
    )
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    closeSync(fd)
    expect(code).toBe(0)
    expect((await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })).code).toBe(0)
    expect(readFileSync(join(cwd, 'redirected.spkg'))).toEqual(readFileSync(join(cwd, 'inn.spkg')))
    expect(readdirSync(cwd).sort()).toEqual(['inn', 'inn.spkg', 'redirected.spkg'])
  }, 60_000)

  it('writes into a pipe named by /dev/fd (bash: spkg pack inn -o >(cat > sub.spkg)), never renaming over it', async () => {
    const cwd = folder()
    const spkg = `'${process.execPath}' --conditions=@spkg/source --import '${tsx}' '${bin}'`
    const child = spawn(
      'bash',
      ['-c', `${spkg} pack inn -o >(cat > sub.spkg) 2>/dev/null; s=$?; wait $!; exit $s`],
      {
        cwd,
        env: { ...process.env, NODE_OPTIONS: '' },
        stdio: 'ignore',
      },
    )
    expect(await new Promise<number | null>((resolve) => child.on('close', resolve))).toBe(0)
    expect((await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })).code).toBe(0)
    expect(readFileSync(join(cwd, 'sub.spkg'))).toEqual(readFileSync(join(cwd, 'inn.spkg')))
  }, 60_000)

  it('writes nothing to standard output when the package is refused', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'inn'), storyTree({ parts: ['story/0001-inn.sty', 'story/0009-gone.sty'] }))
    const r = await runCli(['pack', 'inn', '-o', '-'], { cwd })
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('pkg/missing-part')
    expect(r.stderr).toMatch(/nothing was written\n$/)
    expect(readdirSync(cwd)).toEqual(['inn'])
  })

  it('refuses to write a package to a terminal', async () => {
    const cwd = folder()
    const r = await runCli(['pack', 'inn', '-o', '-'], { cwd, tty: true })
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('standard output is a terminal')
    expect(readdirSync(cwd)).toEqual(['inn'])
  })
})
