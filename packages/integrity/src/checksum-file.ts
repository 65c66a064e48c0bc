/**
 * `META-PKG/checksum.sha256`: GNU `sha256sum` text-mode lines `<64 lowercase hex>␠␠<path>\n`,
 * UTF-8, sorted by path in raw UTF-8 byte order (the order `LC_ALL=C sort` gives the path list),
 * each path once, so `sha256sum -c --strict` accepts
 * it from the extracted root and the bytes are deterministic (they are what the signature covers).
 */
import { createDiagnostic, type Diagnostic } from '@spkg/manifest'
import { decodeUtf8 } from './internal/bytes'
import { CHECKSUM_PATH, entriesOf, isOutsideChecksum } from './internal/paths'
import { normalizeDigest } from './normalize-digest'

const encoder = /* @__PURE__ */ new TextEncoder()

/**
 * Compares two strings by their raw UTF-8 bytes, as `LC_ALL=C sort` orders lines. UTF-8 preserves
 * code point order, so comparing code points (not UTF-16 units, which misorder astral characters)
 * gives the same result without encoding.
 */
export function compareUtf8(a: string, b: string): number {
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    const x = a.codePointAt(i)!
    const y = b.codePointAt(j)!
    if (x !== y) return x - y
    i += x > 0xffff ? 2 : 1
    j += y > 0xffff ? 2 : 1
  }
  return a.length - i - (b.length - j)
}

/** Why GNU tools would escape or misread `path`, or `undefined` when it can stand in a line as is. */
function unrepresentable(path: string): string | undefined {
  if (path.length === 0) return 'is empty'
  if (/[\n\r\\]/.test(path)) return 'contains a newline, carriage return or backslash'
  // In Unicode mode the class matches only lone surrogates, which UTF-8 cannot encode.
  if (/[\uD800-\uDFFF]/u.test(path)) return 'is not well-formed Unicode'
  return undefined
}

/**
 * Builds the exact bytes of `META-PKG/checksum.sha256` from the archive's hashes, covering every
 * file except `META-PKG/checksum.sha256` and `META-PKG/signature.sig`.
 *
 * @param hashes every regular file path mapped to its SHA-256 (hex in any case or `sha256-<base64>`)
 * @throws TypeError when a digest is not SHA-256 or a path cannot be written as a GNU line
 *   (empty, newline, carriage return, backslash); the reader refuses such paths earlier (`pkg/unsafe-path`)
 * @example
 * const bytes = createChecksumFile(new Map([['manifest.json', hex]]))
 * new TextDecoder().decode(bytes) // `${hex}  manifest.json\n`
 */
export function createChecksumFile(
  hashes: ReadonlyMap<string, string> | Readonly<Record<string, string>>,
): Uint8Array {
  const lines: [string, string][] = []
  for (const [path, value] of entriesOf(hashes)) {
    if (isOutsideChecksum(path)) continue
    const why = unrepresentable(path)
    if (why) throw new TypeError(`cannot list '${path}' in ${CHECKSUM_PATH}: the path ${why}`)
    const hex = normalizeDigest(value)
    if (hex === undefined) throw new TypeError(`the hash of '${path}' is not a SHA-256 digest`)
    lines.push([path, hex])
  }
  lines.sort((a, b) => compareUtf8(a[0], b[0]))
  return encoder.encode(lines.map(([path, hex]) => `${hex}  ${path}\n`).join(''))
}

/** Result of {@link parseChecksumFile}. */
export interface ParsedChecksumFile {
  /** Path → lowercase-hex SHA-256 for every well-formed line (the first one wins on duplicates). */
  entries: Map<string, string>
  /** `pkg/checksum-malformed` findings, with 1-based `line` numbers. */
  diagnostics: Diagnostic[]
}

const LINE = /^([0-9a-f]{64}) {2}(.+)$/s

/** Why a line that does not match {@link LINE} is wrong, in words a publisher can act on. */
function lineProblem(raw: string): string {
  if (raw.includes('\r')) return 'carriage return in the line (lines end with LF only)'
  if (raw === '') return 'blank line'
  if (raw.startsWith('\\')) return 'escaped GNU line (paths with \\ or newlines are not allowed)'
  if (/^[0-9a-fA-F]{64} \*/.test(raw)) return 'binary-mode marker `*`: use text mode (two spaces)'
  if (/^[0-9A-F]{64} {2}/i.test(raw)) return 'the hash must be lowercase hex'
  return 'not a `<64 lowercase hex>  <path>` line'
}

/**
 * Parses `META-PKG/checksum.sha256` strictly: strict UTF-8 with no BOM, every line
 * `<64 lowercase hex>␠␠<path>` ending in LF, no blank lines, no CR, no `*` binary marker, no
 * GNU `\` escapes, sorted by raw bytes, each path once, never the checksum or signature file.
 * Every departure is a `pkg/checksum-malformed` error; well-formed lines are still returned.
 *
 * @example
 * const { entries, diagnostics } = parseChecksumFile(bytes)
 * entries.get('manifest.json') // '9f86d0…'
 */
export function parseChecksumFile(bytes: Uint8Array): ParsedChecksumFile {
  const entries = new Map<string, string>()
  const diagnostics: Diagnostic[] = []
  const malformed = (message: string, line?: number) =>
    diagnostics.push(createDiagnostic('pkg/checksum-malformed', message, { path: CHECKSUM_PATH, line }))
  const text = decodeUtf8(bytes)
  if (text === undefined) {
    malformed('the checksum file is not valid UTF-8')
    return { entries, diagnostics }
  }
  if (text.length === 0) {
    malformed('the checksum file is empty; it must list every file of the archive')
    return { entries, diagnostics }
  }
  let body = text
  if (body.startsWith('\uFEFF')) {
    malformed('the checksum file starts with a byte-order mark', 1)
    body = body.slice(1)
  }
  if (!body.endsWith('\n')) malformed('the checksum file does not end with a line feed')
  const lines = body.split('\n')
  if (lines.at(-1) === '') lines.pop()
  let previous: string | undefined
  for (const [index, raw] of lines.entries()) {
    const line = index + 1
    const m = raw.includes('\r') ? null : LINE.exec(raw)
    if (!m) {
      malformed(lineProblem(raw), line)
      continue
    }
    const [, hex, path] = m as unknown as [string, string, string]
    if (isOutsideChecksum(path)) malformed(`'${path}' cannot be listed in the checksum file`, line)
    else if (entries.has(path)) malformed(`'${path}' is listed twice`, line)
    else {
      if (previous !== undefined && compareUtf8(previous, path) > 0)
        malformed(`'${path}' is out of order: lines must be sorted by raw bytes (LC_ALL=C sort)`, line)
      previous = path
      entries.set(path, hex)
    }
  }
  return { entries, diagnostics }
}
