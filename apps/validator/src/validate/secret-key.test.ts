import { copyFileSync, existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'
import { freshDir, storyTree, writeTree } from '../../test/helpers/tree'
import { writeZip } from '../pack/write-zip'
import { isSignifySecretKey } from './secret-key'

/** A fresh directory with a story folder `inn` and a key pair author.{pub,sec}. */
async function folderAndKeys(): Promise<string> {
  const cwd = freshDir()
  writeTree(join(cwd, 'inn'), storyTree())
  expect((await runCli(['keygen', '-o', 'author'], { cwd })).code).toBe(0)
  return cwd
}

describe('isSignifySecretKey', () => {
  it('recognises a signify secret key, with or without passphrase, and nothing else', async () => {
    const cwd = await folderAndKeys()
    const sec = readFileSync(join(cwd, 'author.sec'), 'utf8')
    expect(isSignifySecretKey(Buffer.from(sec))).toBe(true)
    expect(isSignifySecretKey(Buffer.from(sec.replace(/\n/g, '\r\n')))).toBe(true)
    expect(isSignifySecretKey(Buffer.from(`${sec}\n`))).toBe(true)
    // A passphrase-protected key (kdf rounds 42) is still a secret key.
    const [comment, b64] = sec.split('\n')
    const record = Buffer.from(b64!, 'base64')
    record.writeUInt32BE(42, 4)
    expect(isSignifySecretKey(Buffer.from(`${comment}\n${record.toString('base64')}\n`))).toBe(true)
    expect(isSignifySecretKey(readFileSync(join(cwd, 'author.pub')))).toBe(false)
    const notBK = Buffer.from(record)
    notBK[2] = 0x58
    expect(isSignifySecretKey(Buffer.from(`${comment}\n${notBK.toString('base64')}\n`))).toBe(false)
    expect(isSignifySecretKey(Buffer.from(`# notes\n${b64}\n`))).toBe(false)
    expect(isSignifySecretKey(Buffer.from(`${comment}\n${b64}\nmore\n`))).toBe(false)
  })
})

describe('a secret key in the story', () => {
  it('is refused by pack (fatal pkg/secret-key, nothing written)', async () => {
    const cwd = await folderAndKeys()
    copyFileSync(join(cwd, 'author.sec'), join(cwd, 'inn/author.sec'))
    const r = await runCli(['pack', 'inn', '-o', 'inn.spkg', '--allow-errors'], { cwd })
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(
      /^author\.sec: fatal pkg\/secret-key: 'author\.sec' is a signify secret key: secret keys must never be published/m,
    )
    expect(r.stdout).toMatch(/nothing was written\n$/)
    expect(existsSync(join(cwd, 'inn.spkg'))).toBe(false)
  })

  it('is refused by validate of the folder, under any name, and of a package', async () => {
    const cwd = await folderAndKeys()
    copyFileSync(join(cwd, 'author.sec'), join(cwd, 'inn/assets/notes.txt'))
    const r = await runCli(['validate', 'inn', '--format', 'json'], { cwd })
    expect(r.code).toBe(1)
    const report = JSON.parse(r.stdout)
    expect(report).toMatchObject({ loads: false, valid: false })
    expect(report.diagnostics).toContainEqual(
      expect.objectContaining({ code: 'pkg/secret-key', severity: 'fatal', path: 'assets/notes.txt' }),
    )
    // A flat package someone else zipped.
    const files = [
      ['0001-inn.sty', readFileSync(join(cwd, 'inn/story/0001-inn.sty'))],
      ['author.sec', readFileSync(join(cwd, 'author.sec'))],
    ] as const
    writeTree(cwd, {
      'flat.spkg': writeZip(files.map(([path, data]) => ({ path, data, method: 8 as const }))).bytes,
    })
    const flat = await runCli(['validate', 'flat.spkg'], { cwd })
    expect(flat.code).toBe(1)
    expect(flat.stdout).toContain("author.sec: fatal pkg/secret-key: 'author.sec' is a signify secret key")
  })

  it('is not a public key: author.pub in the folder packs', async () => {
    const cwd = await folderAndKeys()
    copyFileSync(join(cwd, 'author.pub'), join(cwd, 'inn/author.pub'))
    const r = await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })
    expect(r.code).toBe(0)
    expect(r.stdout).not.toContain('pkg/secret-key')
    expect(r.stdout).toContain('info pkg/unreferenced-file')
    expect((await runCli(['validate', 'inn'], { cwd })).code).toBe(0)
  })
})
