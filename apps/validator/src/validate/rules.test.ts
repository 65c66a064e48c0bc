import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'

/** A flat story with one warning (story/unreachable) and one info (story/implicit-ids). */
function story(config?: object): string {
  const cwd = mkdtempSync(join(tmpdir(), 'spkg-rules-'))
  mkdirSync(join(cwd, 'tale'))
  writeFileSync(join(cwd, 'tale/story.sty'), 'Start.\n* Go\n  Gone.\n-> END\nNever.\n')
  if (config) writeFileSync(join(cwd, 'tale/spkg.config.json'), JSON.stringify(config))
  return cwd
}

const codes = (stdout: string) =>
  (JSON.parse(stdout).diagnostics as { code: string; severity: string }[]).map(
    (d) => `${d.code}=${d.severity}`,
  )

describe('spkg validate: project rules', () => {
  it('--rule raises, lowers and turns off codes; the verdict and exit code follow', async () => {
    const cwd = story()
    const plain = await runCli(['validate', 'tale', '--format', 'json'], { cwd })
    expect(plain.code).toBe(0)
    expect(codes(plain.stdout)).toEqual(['story/implicit-ids=info', 'story/unreachable=warning'])

    const raised = await runCli(['validate', 'tale', '--rule', 'story/unreachable=error'], { cwd })
    expect(raised.code).toBe(1)
    expect(raised.stdout).toMatch(/^story\.sty:5:1: error story\/unreachable: /m)
    expect(raised.stdout).toMatch(/\ntale: invalid \(a reader still opens it\): 1 error, 1 info\n$/)

    const off = await runCli(
      [
        'validate',
        'tale',
        '--rule',
        'story/unreachable=off',
        '--rule',
        'story/implicit-ids=warning',
        '--format',
        'json',
      ],
      { cwd },
    )
    expect(off.code).toBe(0)
    expect(codes(off.stdout)).toEqual(['story/implicit-ids=warning'])
  })

  it('reads spkg.config.json beside the manifest, lets --rule win, and never packs the file', async () => {
    const cwd = story({ rules: { 'story/unreachable': 'error', 'story/implicit-ids': 'off' } })
    const r = await runCli(['validate', 'tale', '--format', 'json'], { cwd })
    expect(r.code).toBe(1)
    expect(codes(r.stdout)).toEqual(['story/unreachable=error'])
    const cli = await runCli(['validate', 'tale', '--rule', 'story/unreachable=info', '--format', 'json'], {
      cwd,
    })
    expect(cli.code).toBe(0)
    expect(codes(cli.stdout)).toEqual(['story/unreachable=info'])

    const pack = await runCli(['pack', 'tale', '-o', 'tale.spkg', '--allow-errors', '-q'], { cwd })
    expect(pack.code).toBe(0)
    expect(Object.keys(unzipSync(readFileSync(join(cwd, 'tale.spkg'))))).toEqual(['story.sty'])
  })

  it('--max-warnings and maxWarnings fail the run when there are more warnings', async () => {
    const cwd = story()
    const r = await runCli(['validate', 'tale', '--max-warnings', '0'], { cwd })
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/\ntale: too many warnings \(at most 0 allowed\): 1 warning, 1 info\n$/)
    expect((await runCli(['validate', 'tale', '--max-warnings', '1'], { cwd })).code).toBe(0)
    const configured = story({ maxWarnings: 0 })
    expect((await runCli(['validate', 'tale'], { cwd: configured })).code).toBe(1)
    expect((await runCli(['validate', 'tale', '--max-warnings', '5'], { cwd: configured })).code).toBe(0)
  })

  it('--format github ends with the counts by severity', async () => {
    const cwd = story()
    const r = await runCli(['validate', 'tale', '--format', 'github'], { cwd })
    expect(r.stdout).toMatch(/^::warning file=tale\/story\.sty,line=5,col=1,title=story\/unreachable::/m)
    expect(r.stdout).toMatch(/\nspkg validate tale: valid: 0 fatal, 0 errors, 1 warning, 1 info\n$/)
  })

  it('refuses fatal codes, unknown codes, bad levels and a broken config with a clear error (exit 2)', async () => {
    const cwd = story()
    const cases: [string[], string][] = [
      [
        ['--rule', 'pkg/not-zip=off'],
        "--rule: 'pkg/not-zip' is fatal (a reader refuses such a package), so its severity cannot be changed",
      ],
      [
        ['--rule', 'story/nope=off'],
        "--rule: 'story/nope' is not a diagnostic code (see docs/diagnostic-codes.md)",
      ],
      [
        ['--rule', 'story/unreachable=fatal'],
        "--rule: the level of 'story/unreachable' must be off, info, warning or error",
      ],
      [
        ['--rule', 'story/unreachable'],
        "--rule 'story/unreachable': write --rule <code>=off|info|warning|error",
      ],
      [['--max-warnings', 'many'], '--max-warnings must be a whole number of 0 or more'],
    ]
    for (const [args, message] of cases) {
      const r = await runCli(['validate', 'tale', ...args], { cwd })
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(message)
      expect(r.stdout).toBe('')
    }
    writeFileSync(join(cwd, 'tale/spkg.config.json'), '{"rules": ')
    const broken = await runCli(['validate', 'tale'], { cwd })
    expect(broken.code).toBe(2)
    expect(broken.stderr).toContain('spkg.config.json is not valid JSON')
    writeFileSync(join(cwd, 'tale/spkg.config.json'), '{"rules": {"pkg/secret-key": "warning"}}')
    expect((await runCli(['validate', 'tale'], { cwd })).stderr).toContain(
      "spkg.config.json: 'pkg/secret-key' is fatal",
    )
    writeFileSync(join(cwd, 'tale/spkg.config.json'), '{"rule": {}}')
    expect((await runCli(['validate', 'tale'], { cwd })).stderr).toContain("unknown field 'rule'")
  })

  it('finds spkg.config.json for a .spkg as linters do: the file’s folder up, then the current directory up', async () => {
    // outer/spkg.config.json lies above the repository root (outer/repo, with .git): never read.
    const outer = mkdtempSync(join(tmpdir(), 'spkg-rules-pkg-'))
    const repo = join(outer, 'repo')
    mkdirSync(join(repo, '.git'), { recursive: true })
    mkdirSync(join(repo, 'tale'))
    mkdirSync(join(repo, 'dist'))
    writeFileSync(join(repo, 'tale/story.sty'), 'Start.\n* Go\n  Gone.\n-> END\nNever.\n')
    writeFileSync(join(outer, 'spkg.config.json'), '{"rules": {"story/unreachable": "off"}}')
    const packed = await runCli(['pack', 'tale', '-o', 'dist/tale.spkg', '-q'], { cwd: repo })
    expect(packed.code).toBe(0)
    const validate = (args: string[], cwd = repo) =>
      runCli(['validate', ...args, '--format', 'json'], { cwd })
    const plain = ['story/implicit-ids=info', 'story/unreachable=warning']
    expect(codes((await validate(['dist/tale.spkg'])).stdout)).toEqual(plain)

    // At the repository root: found from dist/ up, wherever the command runs.
    writeFileSync(join(repo, 'spkg.config.json'), '{"rules": {"story/unreachable": "error"}}')
    const atRoot = await validate(['dist/tale.spkg'])
    expect(atRoot.code).toBe(1)
    expect(codes(atRoot.stdout)).toEqual(['story/implicit-ids=info', 'story/unreachable=error'])
    const elsewhere = mkdtempSync(join(tmpdir(), 'spkg-rules-cwd-'))
    mkdirSync(join(elsewhere, '.git'))
    expect(codes((await validate([join(repo, 'dist/tale.spkg')], elsewhere)).stdout)).toEqual([
      'story/implicit-ids=info',
      'story/unreachable=error',
    ])

    // Beside the package: the nearest wins, alone (files are not merged); --rule still wins.
    writeFileSync(join(repo, 'dist/spkg.config.json'), '{"rules": {"story/implicit-ids": "off"}}')
    expect(codes((await validate(['dist/tale.spkg'])).stdout)).toEqual(['story/unreachable=warning'])
    const cli = await validate(['dist/tale.spkg', '--rule', 'story/unreachable=off'])
    expect(codes(cli.stdout)).toEqual([])

    // A package outside any project: the current directory's project applies.
    const stray = join(elsewhere, 'tale.spkg')
    writeFileSync(stray, readFileSync(join(repo, 'dist/tale.spkg')))
    expect(codes((await validate([stray], elsewhere)).stdout)).toEqual(plain)
    expect(codes((await validate([stray], repo)).stdout)).toEqual([
      'story/implicit-ids=info',
      'story/unreachable=error',
    ])

    // Errors name the file that was found.
    writeFileSync(join(repo, 'dist/spkg.config.json'), '{"rules": ')
    const broken = await validate(['dist/tale.spkg'])
    expect(broken.code).toBe(2)
    expect(broken.stderr).toContain(`${join('dist', 'spkg.config.json')} is not valid JSON`)
  })
})
