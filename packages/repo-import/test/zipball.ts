/**
 * Zipballs as a repository host makes them, made by the real `zip` tool: a folder
 * `<wrapper>/` holding the repository's files, optionally with the commit as the archive comment
 * (git archive writes it there).
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

export const SHA = '3f786850e387550fdab836ed7e6dc881de23001b'
export const WRAPPER = `owner-story-${SHA.slice(0, 7)}`

/** A packaged story repository's files (plus the usual repository files). */
export function storyRepository(title = 'The Inn'): Record<string, string | Uint8Array> {
  return {
    'manifest.json': JSON.stringify({
      manifest: '1.0',
      story_lang: '1.0',
      id: '0b7c2f4e-9a1d-4c3b-8e5f-6a7b8c9d0e1f',
      title,
      version: '1.2.0',
      parts: ['story/0001-inn.sty'],
    }),
    'story/0001-inn.sty': '# Inn\nYou push the door of the inn.\n',
    'README.md': '# The Inn\n',
    LICENSE: 'MIT\n',
    '.gitignore': 'dist\n',
    '.github/workflows/ci.yml': 'on: push\n',
  }
}

/**
 * Zips `files` under the top folder `wrapper` (or, with `wrapper` null, as they are) with the
 * `zip` CLI; `comment` becomes the archive comment.
 */
export function makeZipball(
  files: Record<string, string | Uint8Array>,
  options: { wrapper?: string | null; comment?: string; level?: number } = {},
): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'spkg-zipball-'))
  const wrapper = options.wrapper === undefined ? WRAPPER : options.wrapper
  const root = wrapper === null ? join(dir, 'src') : join(dir, 'src', wrapper)
  mkdirSync(root, { recursive: true })
  for (const [path, data] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), data)
  }
  const out = join(dir, 'out.zip')
  execFileSync('zip', ['-q', '-r', '-X', `-${options.level ?? 6}`, out, '.'], { cwd: join(dir, 'src') })
  if (options.comment !== undefined) execFileSync('zip', ['-q', '-z', out], { input: `${options.comment}\n` })
  return new Uint8Array(readFileSync(out))
}

/** Replaces every occurrence of `from` by `to` (same length) in the archive's bytes: names in both headers. */
export function patchBytes(zip: Uint8Array, from: string, to: string): Uint8Array {
  if (from.length !== to.length) throw new Error('same length only')
  const out = new Uint8Array(zip)
  const a = Buffer.from(from)
  const b = Buffer.from(to)
  let i = Buffer.from(out.buffer).indexOf(a)
  let n = 0
  while (i >= 0) {
    out.set(b, i)
    n++
    i = Buffer.from(out.buffer).indexOf(a, i + 1)
  }
  if (n === 0) throw new Error(`'${from}' not found`)
  return out
}

/**
 * A zipball as GitHub makes it: `git archive --format=zip` of a fresh repository's commit, under
 * `owner-story-<short sha>/`, with the full commit id as the archive comment. Returns the commit too.
 */
export function gitArchiveZipball(files: Record<string, string | Uint8Array>): {
  zip: Uint8Array
  commit: string
} {
  const dir = mkdtempSync(join(tmpdir(), 'spkg-git-'))
  for (const [path, data] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), data)
  }
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], {
      cwd: dir,
      encoding: 'utf8',
    }).trim()
  git('init', '-q')
  git('add', '-A')
  git('commit', '-q', '-m', 'release')
  const commit = git('rev-parse', 'HEAD')
  const zip = execFileSync(
    'git',
    ['archive', '--format=zip', `--prefix=owner-story-${commit.slice(0, 7)}/`, 'HEAD'],
    {
      cwd: dir,
    },
  )
  return { zip: new Uint8Array(zip), commit }
}
