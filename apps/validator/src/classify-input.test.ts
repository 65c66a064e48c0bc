import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../test/helpers/cli'
import { freshDir } from '../test/helpers/tree'
import type { CliIO } from './cli-types'
import { classifyInput } from './io'

function ioWith(cwd: string, env: Record<string, string> = {}): CliIO {
  return { stdout: { write: () => true }, stderr: { write: () => true }, cwd, env }
}

describe('classifyInput', () => {
  const cwd = freshDir()
  mkdirSync(join(cwd, 'inn'))
  writeFileSync(join(cwd, 'inn.spkg'), 'x')

  it.each([
    ['-', 'stdin'],
    ['inn', 'folder'],
    ['inn.spkg', 'file'],
    ['missing.spkg', 'file'],
    ['https:not-a-url', 'file'],
    ['https://github.com/owner/story', 'repository'],
    ['https://github.com/owner/story/tree/v1.2', 'repository'],
    // The configured host with another scheme, case, port, user-info or a trailing dot is still a
    // repository URL, so it is refused as one rather than fetched as a package file.
    ['http://github.com/owner/story', 'repository'],
    ['HTTPS://GitHub.COM/owner/story', 'repository'],
    ['https://github.com./owner/story', 'repository'],
    ['https://github.com:8443/owner/story', 'repository'],
    ['https://user:pw@github.com/owner/story', 'repository'],
    ['ftp://github.com/owner/story', 'repository'],
    ['https://github.com.evil.example/owner/story', 'url'],
    ['https://example.org/stories/inn.spkg', 'url'],
    ['https://raw.githubusercontent.com/o/r/main/inn.spkg', 'url'],
  ])('%s is a %s', async (arg, kind) => {
    expect((await classifyInput(ioWith(cwd), arg)).kind).toBe(kind)
  })

  it('takes the repository host from SPKG_REPO_HOST', async () => {
    const io = ioWith(cwd, { SPKG_REPO_HOST: 'git.example.org:8443' })
    expect((await classifyInput(io, 'https://git.example.org:8443/o/r')).kind).toBe('repository')
    expect((await classifyInput(io, 'https://git.example.org/o/r')).kind).toBe('repository')
    expect((await classifyInput(io, 'https://github.com/o/r')).kind).toBe('url')
  })
})

describe('spkg with a refused repository URL', () => {
  it.each([
    ['validate', ['--format', 'json']],
    ['inspect', ['--format', 'json']],
  ])('%s prints the repo/invalid-url refusal and exits 1, with no request made', async (command, extra) => {
    const r = await runCli([command, 'https://github.com/owner/../story', ...extra], { cwd: freshDir() })
    expect(r.code).toBe(1)
    const json = JSON.parse(r.stdout)
    expect(json.diagnostics.map((d: { code: string }) => d.code)).toEqual(['repo/invalid-url'])
    if (command === 'validate') expect(json.loads).toBe(false)
  })

  it('pack refuses it and writes nothing', async () => {
    const cwd = freshDir()
    const r = await runCli(['pack', 'http://github.com/owner/story', '-o', 'out.spkg'], { cwd })
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('repo/invalid-url')
    expect(r.stdout).toContain('nothing was written')
  })

  it('play refuses it', async () => {
    const r = await runCli(['play', 'https://github.com/owner/story?tab=x'], { cwd: freshDir() })
    expect(r.code).toBe(1)
    expect(r.stdout + r.stderr).toContain('repo/invalid-url')
  })

  it('a plain http:// package URL on another host is an I/O error, naming no credentials', async () => {
    const r = await runCli(['validate', 'http://me:secret@example.org/inn.spkg?sig=abc'], {
      cwd: freshDir(),
    })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('must be https://')
    expect(r.stderr).not.toContain('secret')
    expect(r.stderr).not.toContain('sig=abc')
  })
})
