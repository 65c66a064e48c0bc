/**
 * The repository's GitHub action (`action.yml` at the root) runs `spkg validate` through npx: this
 * test runs the action's own shell step, with its inputs as the environment GitHub gives it, and an
 * `npx` on PATH that checks the package it is asked for and runs this validator instead of the
 * published one (no network in tests).
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../test/helpers/cli'

const ROOT = join(__dirname, '../../..')
const ACTION = readFileSync(join(ROOT, 'action.yml'), 'utf8')

/** The `run: |` block of the action's step, dedented. */
function runBlock(yaml: string): string {
  const lines = yaml.split('\n')
  const at = lines.findIndex((l) => /^\s+run: \|$/.test(l))
  expect(at).toBeGreaterThan(0)
  const body: string[] = []
  for (const l of lines.slice(at + 1)) {
    if (l.trim() !== '' && !l.startsWith('        ')) break
    body.push(l.slice(8))
  }
  return body.join('\n')
}

/** The inputs' defaults, read from action.yml. */
function defaultOf(input: string): string {
  const m = new RegExp(`\\n  ${input}:\\n(?:    .*\\n)*?    default: (.*)\\n`).exec(ACTION)
  expect(m).not.toBeNull()
  const v = (m as RegExpExecArray)[1] as string
  // A quoted YAML scalar, single or double quotes (Biome formats action.yml with double quotes).
  return v.replace(/^'(.*)'$|^"(.*)"$/, '$1$2')
}

function runAction(cwd: string, inputs: Record<string, string>) {
  const bin = mkdtempSync(join(tmpdir(), 'spkg-action-bin-'))
  const log = join(bin, 'npx.log')
  // A stand-in for npx: records its arguments, runs this repository's validator for @spkg/validator.
  writeFileSync(
    join(bin, 'npx'),
    `#!/bin/sh
printf '%s\\n' "$*" > '${log}'
[ "$1" = --yes ] || exit 99
case "$2" in @spkg/validator@*) ;; *) exit 98 ;; esac
shift 2
exec node --conditions=@spkg/source --import '${join(ROOT, 'node_modules/tsx/dist/loader.mjs')}' '${join(ROOT, 'apps/validator/src/bin.ts')}' "$@"
`,
  )
  chmodSync(join(bin, 'npx'), 0o755)
  const r = spawnSync('bash', ['-e', '-c', runBlock(ACTION)], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: process.env.HOME,
      SPKG_PATH: inputs.path ?? defaultOf('path'),
      SPKG_VERSION: inputs.version ?? defaultOf('version'),
      SPKG_ARGS: inputs.args ?? defaultOf('args'),
    },
  })
  return { ...r, npx: readFileSync(log, 'utf8').trim() }
}

describe('action.yml', () => {
  it('is a composite action with the inputs spkg init’s workflow uses', () => {
    expect(ACTION).toMatch(/\n {2}using: composite\n/)
    expect(defaultOf('path')).toBe('.')
    expect(defaultOf('version')).toBe('latest')
    expect(defaultOf('args')).toBe('')
  })

  it('validates a new story with --format github: annotations, counts, exit 0', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'spkg-action-'))
    expect((await runCli(['init', '.', '--title', 'CI'], { cwd })).code).toBe(0)
    const r = runAction(cwd, {})
    expect(r.npx).toBe('--yes @spkg/validator@latest validate . --format github')
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    // A fresh project has nothing to annotate: the .github/ and .gitignore init wrote are a repository's own.
    expect(r.stdout).toBe('spkg validate .: valid: 0 fatal, 0 errors, 0 warnings, 0 info\n')
  })

  it('fails the step on an error, and passes args through (quoted words, no globbing)', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'spkg-action-'))
    await runCli(['init', 'my story', '--flat'], { cwd })
    writeFileSync(join(cwd, 'my story/story.sty'), 'Hi.\n-> END\nNever.\n')
    const warned = runAction(cwd, { path: 'my story', version: '1.2.3' })
    expect(warned.status).toBe(0)
    expect(warned.npx).toBe('--yes @spkg/validator@1.2.3 validate my story --format github')
    expect(warned.stdout).toMatch(
      /^::warning file=my story\/story\.sty,line=3,col=1,title=story\/unreachable::/m,
    )
    const strict = runAction(cwd, { path: 'my story', args: '--max-warnings 0 --rule story/*=off' })
    expect(strict.status).toBe(2) // story/* is not a code: a usage error, and no glob expansion
    expect(strict.stderr).toContain("'story/*' is not a diagnostic code")
    const failed = runAction(cwd, { path: 'my story', args: '--rule story/unreachable=error' })
    expect(failed.status).toBe(1)
    expect(failed.stdout).toMatch(
      /^::error file=my story\/story\.sty,line=3,col=1,title=story\/unreachable::/m,
    )
  })
})
