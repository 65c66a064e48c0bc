import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { encryptPackage, generateEncryptionKey } from '@spkg/integrity/encrypt'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'
import { freshDir, storyTree, writeTree } from '../../test/helpers/tree'

/** A packed story, encrypted with a fresh key written as hex to `inn.key`. */
async function encryptedPackage(): Promise<string> {
  const cwd = freshDir()
  writeTree(join(cwd, 'inn'), storyTree())
  expect((await runCli(['pack', 'inn', '-o', 'inn.spkg'], { cwd })).code).toBe(0)
  const key = generateEncryptionKey()
  writeFileSync(join(cwd, 'inn.key'), `${Buffer.from(key).toString('hex')}\n`)
  writeFileSync(join(cwd, 'wrong.key'), Buffer.from(generateEncryptionKey()).toString('base64'))
  writeFileSync(
    join(cwd, 'inn.spkg.enc'),
    await encryptPackage(new Uint8Array(readFileSync(join(cwd, 'inn.spkg'))), key),
  )
  return cwd
}

describe('encrypted packages (.spkg.enc)', () => {
  it('are refused with advice a command-line user can follow, then opened with --decryption-key', async () => {
    const cwd = await encryptedPackage()
    const locked = await runCli(['validate', 'inn.spkg.enc'], { cwd })
    expect(locked.code).toBe(1)
    expect(locked.stdout).toContain(
      'fatal pkg/key-required: The package is encrypted (.spkg.enc); pass its key with --decryption-key <key-file>.',
    )
    expect(locked.stdout).not.toContain('decryptionKey')
    for (const args of [['validate'], ['verify'], ['inspect'], ['play']]) {
      const r = await runCli([...args, 'inn.spkg.enc', '--decryption-key', 'inn.key'], { cwd })
      // verify: opened and intact, but unsigned, so the verdict fails (exit 1) after its lines.
      if (args[0] === 'verify') expect(r.stdout).toContain('integrity: ok\n')
      expect(r.code, args[0]).toBe(args[0] === 'verify' ? 1 : 0)
      expect(`${r.stdout}${r.stderr}`, args[0]).not.toContain('pkg/key-required')
    }
    const wrong = await runCli(['validate', 'inn.spkg.enc', '--decryption-key', 'wrong.key'], { cwd })
    expect(wrong.code).toBe(1)
    expect(wrong.stdout).toContain('fatal pkg/decrypt-failed:')
    // The key can be given literally too; a file that holds no key is a usage error.
    const literal = readFileSync(join(cwd, 'inn.key'), 'utf8').trim()
    expect((await runCli(['validate', 'inn.spkg.enc', '--decryption-key', literal], { cwd })).code).toBe(0)
    const notKey = await runCli(['validate', 'inn.spkg.enc', '--decryption-key', 'inn.spkg'], { cwd })
    expect(notKey.code).toBe(2)
    expect(notKey.stderr).toContain("--decryption-key 'inn.spkg' does not hold a key")
  })
})
