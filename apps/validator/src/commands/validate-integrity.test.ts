import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildPackage } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { main } from '../cli'

/** `spkg validate <file> --format json` in-process: the exit code and the parsed report. */
async function validate(bytes: Uint8Array) {
  const cwd = mkdtempSync(join(tmpdir(), 'spkg-integrity-'))
  writeFileSync(join(cwd, 'p.spkg'), bytes)
  let stdout = ''
  const io = {
    write: (s: string | Uint8Array) => {
      stdout += String(s)
    },
    isTTY: false,
  }
  const code = await main(['validate', 'p.spkg', '--format', 'json'], {
    stdout: io,
    stderr: io,
    cwd,
    env: {},
  })
  const report = JSON.parse(stdout) as {
    loads: boolean
    diagnostics: Array<{ code: string; severity: string }>
  }
  return {
    code,
    loads: report.loads,
    fatal: report.diagnostics.filter((d) => d.severity === 'fatal').map((d) => d.code),
  }
}

// A package that asks for verification must never load a file unverified.
describe('spkg validate and malformed integrity', () => {
  it('refuses a package whose integrity lists a hash that is not a SHA-256', async () => {
    const r = await validate(buildPackage({ manifest: { integrity: { 'story/0001-start.sty': 'xyz' } } }))
    expect(r).toEqual({ code: 1, loads: false, fatal: ['pkg/integrity-mismatch'] })
  })

  it('refuses a package whose integrity is not an object', async () => {
    const r = await validate(buildPackage({ manifest: { integrity: 'sha256-everything' } }))
    expect(r).toEqual({ code: 1, loads: false, fatal: ['pkg/integrity-malformed'] })
  })

  it('loads the same package with a correct integrity', async () => {
    const r = await validate(buildPackage({ integrity: true }))
    expect(r).toMatchObject({ code: 0, loads: true, fatal: [] })
  })
})
