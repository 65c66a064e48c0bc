/**
 * File input and output for commands: clear one-line failures, never a half-written file.
 */
import { randomBytes } from 'node:crypto'
import { createReadStream, openAsBlob, rmSync, type Stats } from 'node:fs'
import { readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { createDiagnostic, type Diagnostic, type DiagnosticCode, isSpkgError, LIMITS } from '@spkg/manifest'
import { createRangeSource, type Sleeper } from '@spkg/reader'
import type { CliIO } from './cli-types'
import { IOFailure, UsageError } from './cli-types'
import { configuredRepoHost, readRepository } from './repository-input'

/** The code of a package input that cannot be read (a missing file, a URL that does not answer). */
const FETCH_FAILED = 'pkg/fetch-failed'

/**
 * The diagnostic a `--format json` command prints as its result when its package input cannot be
 * read ({@link IOFailure} with a `code`), or undefined for any other error.
 */
export function inputFailure(e: unknown): Diagnostic | undefined {
  if (!(e instanceof IOFailure) || !e.code) return undefined
  return createDiagnostic(e.code as DiagnosticCode, e.message, {}, 'fatal')
}

/** Resolves a command-line path against the command's working directory. */
export function resolvePath(io: CliIO, p: string): string {
  return resolve(io.cwd, p)
}

function describe(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory'
    case 'EACCES':
    case 'EPERM':
      return 'permission denied'
    case 'EISDIR':
      return 'is a directory'
    case 'ENOTDIR':
      return 'a parent is not a directory'
    case 'ENOSPC':
      return 'no space left on the device'
    case 'EROFS':
      return 'read-only file system'
    default:
      return (e as Error)?.message ?? String(e)
  }
}

/** Reads a file given on the command line (`-` reads standard input). */
export async function readInput(io: CliIO, p: string): Promise<Uint8Array> {
  if (p === '-') {
    if (!io.stdin) throw new IOFailure('standard input is not available')
    const chunks: Uint8Array[] = []
    for await (const c of io.stdin) chunks.push(typeof c === 'string' ? new TextEncoder().encode(c) : c)
    return Buffer.concat(chunks)
  }
  try {
    return new Uint8Array(await readFile(resolvePath(io, p)))
  } catch (e) {
    throw new IOFailure(`cannot read '${p}': ${describe(e)}`)
  }
}

/** Temporary files being written, removed if a signal (Ctrl-C) ends the process first. */
const pendingTemps = new Set<string>()
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

function removeTempsAndStop(signal: NodeJS.Signals): void {
  for (const tmp of pendingTemps) {
    try {
      rmSync(tmp, { force: true })
    } catch {
      // Nothing more can be done on the way out.
    }
  }
  pendingTemps.clear()
  for (const s of STOP_SIGNALS) process.removeListener(s, removeTempsAndStop)
  // Die of the same signal, so the shell sees what it expects (status 130 for Ctrl-C).
  process.kill(process.pid, signal)
}

/**
 * Registers `tmp` to be removed when Ctrl-C (SIGINT), SIGTERM or SIGHUP stops the process while
 * it is written; the returned function unregisters it. The handlers exist only while a temporary
 * file is pending, so the default signal behaviour is untouched otherwise.
 */
export function removeOnInterrupt(tmp: string): () => void {
  if (pendingTemps.size === 0) for (const s of STOP_SIGNALS) process.on(s, removeTempsAndStop)
  pendingTemps.add(tmp)
  return () => {
    if (!pendingTemps.delete(tmp) || pendingTemps.size > 0) return
    for (const s of STOP_SIGNALS) process.removeListener(s, removeTempsAndStop)
  }
}

/** A package input refused before it was handed to the reader (a stream with no end in sight). */
export interface InputRefusal {
  refused: Diagnostic
}

/** True for {@link readPackageInput}'s refusal. */
export function isRefusal(input: Uint8Array | Blob | InputRefusal): input is InputRefusal {
  return 'refused' in input
}

/**
 * Bytes read from a stream (standard input, a pipe, a device) before giving up: far more than any
 * package within the limits can hold (the reader refuses anything above about 1.2 times the
 * uncompressed limit), so `/dev/zero` or an endless pipe is refused instead of read forever.
 */
const MAX_STREAM_BYTES = 2 * LIMITS.maxUncompressedBytes

async function readCapped(
  chunks: AsyncIterable<Uint8Array | string>,
  shown: string,
): Promise<Uint8Array | InputRefusal> {
  const kept: Uint8Array[] = []
  let total = 0
  for await (const c of chunks) {
    const bytes = typeof c === 'string' ? new TextEncoder().encode(c) : c
    total += bytes.length
    if (total > MAX_STREAM_BYTES)
      return {
        refused: createDiagnostic(
          'pkg/too-large',
          `${shown} goes on past ${MAX_STREAM_BYTES} bytes; no package within the limits is that large, so it was not read further`,
        ),
      }
    kept.push(bytes)
  }
  return Buffer.concat(kept)
}

/**
 * What a command's package argument names, told apart before anything is read:
 * - `stdin`: `-`;
 * - `repository`: a URL whose host is the configured repository host (`SPKG_REPO_HOST`, default
 *   `github.com`), whatever its scheme or port: it must then match one of the two repository
 *   shapes exactly, or it is refused (`repo/invalid-url`);
 * - `url`: any other `scheme://` argument (a package file on the web: {@link readUrlInput});
 * - `folder`: an existing folder; `file`: anything else (a file, a device, a missing path).
 */
export type InputClass =
  | { kind: 'stdin' }
  | { kind: 'repository'; url: string }
  | { kind: 'url'; url: string }
  | { kind: 'folder'; path: string }
  | { kind: 'file'; path: string }

/** The host name of a `scheme://` argument as a browser would read it, or undefined for a path. */
function urlHostName(arg: string): string | undefined {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#\\]*)/.exec(arg)
  if (!m) return undefined
  const authority = m[1]!.slice(m[1]!.lastIndexOf('@') + 1)
  const host = authority.startsWith('[')
    ? authority.slice(0, authority.indexOf(']') + 1)
    : authority.replace(/:[^:]*$/, '')
  return host.toLowerCase().replace(/\.+$/, '')
}

/** Tells what a package argument names: see {@link InputClass}. */
export async function classifyInput(io: CliIO, arg: string): Promise<InputClass> {
  if (arg === '-') return { kind: 'stdin' }
  const host = urlHostName(arg)
  if (host !== undefined) {
    const repoHost = configuredRepoHost(io).replace(/:[0-9]*$/, '')
    return host === repoHost ? { kind: 'repository', url: arg } : { kind: 'url', url: arg }
  }
  const path = resolvePath(io, arg)
  try {
    if ((await stat(path)).isDirectory()) return { kind: 'folder', path }
  } catch {
    // Missing or unreadable: reading it says why.
  }
  return { kind: 'file', path }
}

/** True for a loopback host name (`localhost`, 127.0.0.0/8, `[::1]`): the only hosts `http://` may name. */
function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '')
  return h === 'localhost' || h.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(h) || h === '[::1]'
}

/**
 * Refuses (as an I/O error) a package URL `spkg` does not fetch: anything but `https://`, or
 * `http://` naming a loopback host. Returns the URL as messages show it (no credentials, query or
 * fragment).
 */
export function checkPackageUrl(url: string): string {
  const shown = url.replace(/[?#].*$/, '').replace(/\/\/[^/@]*@/, '//')
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new IOFailure(`cannot read '${shown}': not a valid URL`, FETCH_FAILED)
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopback(parsed.hostname)))
    throw new IOFailure(
      `cannot read '${shown}': a package URL must be https:// (http:// only for a loopback address)`,
      FETCH_FAILED,
    )
  return shown
}

/** What {@link fetchUrlPackage} brought: the bytes and how many were transferred, in how many requests. */
export interface FetchedUrlPackage {
  bytes: Uint8Array
  bytesFetched: number
  requests: number
  ranged: boolean
}

/**
 * A package file given by URL (not a repository): `https://`, or `http://` for a loopback host
 * only, read as the reader reads it (`createRangeSource`: HTTP ranges with `If-Range`, one bounded
 * whole download from a server that ignores them, the SPEC's retries). A download that fails is an
 * I/O error; a file too large for any package is refused (`pkg/too-large`).
 */
export async function fetchUrlPackage(
  _io: CliIO,
  url: string,
  options: { sleep?: Sleeper } = {},
): Promise<FetchedUrlPackage | InputRefusal> {
  const shown = checkPackageUrl(url)
  try {
    const source = await createRangeSource(url, {
      maxBytes: LIMITS.maxUncompressedBytes + URL_ARCHIVE_OVERHEAD,
      ...(options.sleep ? { sleep: options.sleep } : {}),
    })
    const bytes = await source.readAll()
    return { bytes, bytesFetched: source.bytesFetched, requests: source.requests, ranged: source.ranged }
  } catch (e) {
    if (!isSpkgError(e)) throw e
    if (e.code === 'pkg/too-large')
      return { refused: e.diagnostics[0] ?? createDiagnostic(e.code, e.message) }
    throw new IOFailure(`cannot read '${shown}': ${e.message}`, e.code)
  }
}

/** Room above the uncompressed-size limit a package file may take (the reader's archive bound, and an encrypted container's overhead). */
const URL_ARCHIVE_OVERHEAD = 16 * 1024 * 1024

/** {@link fetchUrlPackage}'s bytes. */
export async function readUrlInput(io: CliIO, url: string): Promise<Uint8Array | Blob | InputRefusal> {
  const got = await fetchUrlPackage(io, url)
  return 'refused' in got ? got : got.bytes
}

/**
 * Reads a package given on the command line for the reader. A file larger than the package size
 * limit is handed over as a file-backed `Blob`, never read into memory: the reader refuses one
 * too large for any package (`pkg/too-large`) from its size alone, so a 3 GB file is an invalid
 * package (exit 1), not an out-of-memory or an I/O error. Standard input (`-`) and other streams
 * (a pipe, `/dev/zero`) are read up to a bound, past which the input is refused (`pkg/too-large`).
 * A repository URL is downloaded and unwrapped ({@link readRepository}); a refused one is the
 * refusal (its `repo/*` diagnostic).
 */
export async function readPackageInput(io: CliIO, p: string): Promise<Uint8Array | Blob | InputRefusal> {
  const input = await classifyInput(io, p)
  if (input.kind === 'stdin') {
    if (!io.stdin) throw new IOFailure('standard input is not available')
    return readCapped(io.stdin, 'standard input')
  }
  if (input.kind === 'repository') {
    const got = await readRepository(io, input.url)
    return got.ok ? got.bytes : { refused: got.diagnostics[0]! }
  }
  if (input.kind === 'url') return readUrlInput(io, input.url)
  const path = input.path
  let info: Stats
  try {
    info = await stat(path)
    if (info.isFile() && info.size > LIMITS.maxUncompressedBytes) return await openAsBlob(path)
  } catch (e) {
    throw new IOFailure(`cannot read '${p}': ${describe(e)}`, FETCH_FAILED)
  }
  if (info.isFile() || info.isDirectory()) {
    try {
      return await readInput(io, p)
    } catch (e) {
      throw e instanceof IOFailure ? new IOFailure(e.message, FETCH_FAILED) : e
    }
  }
  try {
    return await readCapped(createReadStream(path), `'${p}'`)
  } catch (e) {
    throw new IOFailure(`cannot read '${p}': ${describe(e)}`, FETCH_FAILED)
  }
}

/** Paths that name this process's standard output. */
const STDOUT_PATHS = new Set(['/dev/stdout', '/dev/fd/1', '/proc/self/fd/1'])

/**
 * True when an output path given on the command line is standard output: `-`, `/dev/stdout`
 * (or `/dev/fd/1`). A command writing its result there must print everything else on stderr.
 */
export function isStandardOutput(io: CliIO, p: string): boolean {
  return p === '-' || (process.platform !== 'win32' && STDOUT_PATHS.has(resolvePath(io, p)))
}

/**
 * Where a command that writes its result to `out` prints what a person reads: standard error when
 * `out` is standard output (the package goes there), else standard output. A package is never
 * written to a terminal: that is a usage error naming `option`, the command's `-o` placeholder.
 *
 * @example
 * const { toStdout, say } = messageStream(io, out, '<file.spkg>')
 */
export function messageStream(
  io: CliIO,
  out: string,
  option: string,
): { toStdout: boolean; say: CliIO['stdout'] | CliIO['stderr'] } {
  const toStdout = isStandardOutput(io, out)
  if (toStdout && io.stdout.isTTY === true)
    throw new UsageError(
      `standard output is a terminal; redirect it to a file or a pipe, or give -o ${option}`,
    )
  return { toStdout, say: toStdout ? io.stderr : io.stdout }
}

/**
 * Writes a file atomically: the bytes go to a temporary file beside the target, which is then
 * renamed over it, so an interrupted or failed write never leaves a truncated file behind, and
 * Ctrl-C during the write removes the temporary file. A symbolic link is followed (the file it
 * points to is replaced, the link stays); a target that exists and is neither a file nor a folder
 * (a pipe, a device) is written to directly, never replaced by a rename. Standard output (`-`,
 * `/dev/stdout`: see {@link isStandardOutput}) is written through `io.stdout`, whatever it is
 * connected to (a pipe, a file, a terminal).
 */
export async function writeOutputAtomic(
  io: CliIO,
  p: string,
  data: Uint8Array | string | AsyncIterable<Uint8Array>,
): Promise<void> {
  if (isStandardOutput(io, p)) {
    if (typeof data === 'string' || data instanceof Uint8Array) io.stdout.write(data)
    else for await (const chunk of data) io.stdout.write(chunk)
    return
  }
  let target = resolvePath(io, p)
  let direct = false
  try {
    // stat, not realpath: a /dev/fd or /proc link to a pipe ("pipe:[1234]") has no real path,
    // and renaming over the link itself would replace it with a file.
    const info = await stat(target)
    if (info.isFile()) target = await realpath(target)
    else direct = !info.isDirectory()
  } catch (e) {
    // Absent (or a dangling link): written beside it below. Anything else is a failed write.
    if ((e as NodeJS.ErrnoException)?.code !== 'ENOENT')
      throw new IOFailure(`cannot write '${p}': ${describe(e)}`)
  }
  if (direct) {
    try {
      await writeFile(target, data)
    } catch (e) {
      throw new IOFailure(`cannot write '${p}': ${describe(e)}`)
    }
    return
  }
  const tmp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`)
  const release = removeOnInterrupt(tmp)
  try {
    await writeFile(tmp, data, { flag: 'wx' })
    await rename(tmp, target)
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => {})
    throw new IOFailure(`cannot write '${p}': ${describe(e)}`)
  } finally {
    release()
  }
}
