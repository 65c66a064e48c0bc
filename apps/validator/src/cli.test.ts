import { describe, expect, it } from 'vitest'
import { runCli } from '../test/helpers/cli'
import { COMMANDS } from './commands'
import { VERSION } from './version'

describe('spkg', () => {
  it('prints its version', async () => {
    expect(await runCli(['--version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' })
  })
  it('lists every command in --help', async () => {
    const r = await runCli(['--help'])
    expect(r.code).toBe(0)
    for (const c of COMMANDS) expect(r.stdout).toContain(c.path.join(' '))
  })
  it('prints usage and exits 2 with no arguments', async () => {
    const r = await runCli([])
    expect(r.code).toBe(2)
    expect(r.stdout).toContain('Usage: spkg <command>')
  })
  it('refuses an unknown command with exit 2', async () => {
    const r = await runCli(['frobnicate'])
    expect(r).toMatchObject({ code: 2, stdout: '' })
    expect(r.stderr).toContain("unknown command 'frobnicate'")
  })
  it.each(COMMANDS.map((c) => [c.path.join(' ')]))('has --help for %s', async (words) => {
    const r = await runCli([...words.split(' '), '--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(new RegExp(`^Usage: spkg ${words}`))
    expect(r.stdout).toContain('--help')
  })
  it('refuses unknown options with exit 2 and the usage line', async () => {
    const r = await runCli(['manifest', 'check', 'x.json', '--frob'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("Unknown option '--frob'")
    expect(r.stderr).toContain('Usage: spkg manifest check')
  })
})
