/**
 * The work of `update.ts` (loaded only when the command runs): a delta update into a cache
 * folder, printing the mode, the bytes fetched and the files fetched, reused and removed.
 */
import { resolve } from 'node:path'
import { createFolderCacheDriver, createPackageCache, updatePackage } from '@spkg/reader/node'
import type { CommandContext, ExitCode } from '../cli-types'
import { EXIT, UsageError } from '../cli-types'
import { formatDiagnosticLine, jsonDiagnostic, parseFormat, useColor, writeJson } from '../report'

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost'])

/** The URL, if it is https:, or http: to a loopback address. */
function parseUrl(text: string): URL {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new UsageError(`'${text}' is not a URL`)
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname))) return url
  throw new UsageError(`'${url.origin}': only https:// URLs (or http:// to a loopback address) are accepted`)
}

const percent = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : '-')

/** Runs `spkg update` (its options and help are in `update.ts`). */
export async function runUpdate({ values, positionals, io }: CommandContext): Promise<ExitCode> {
  const format = parseFormat(values.format, ['text', 'json'] as const)
  const folder = resolve(io.cwd, positionals[0]!)
  const url = parseUrl(positionals[1]!)
  const id = typeof values.id === 'string' ? values.id : undefined
  const cache = createPackageCache(createFolderCacheDriver(folder))
  const result = await updatePackage({ cache, ...(id ? { id } : {}) }, url, {
    removeOld: values['keep-old'] !== true,
  })
  if (format === 'json') {
    writeJson(io, { url: url.href, ...result, diagnostics: result.diagnostics.map(jsonDiagnostic) })
    return result.ok ? EXIT.ok : EXIT.invalid
  }
  const color = useColor(io)
  for (const d of result.diagnostics)
    if (d.severity === 'fatal' || d.severity === 'error')
      io.stdout.write(`${formatDiagnosticLine(d, color)}\n`)
  if (!result.ok) {
    io.stdout.write(`update refused: ${result.bytesFetched} bytes fetched in ${result.requests} requests\n`)
    return EXIT.invalid
  }
  const { to, from } = result
  const what =
    result.mode === 'current'
      ? `${to.id} ${to.version} is already current`
      : `updated ${to.id} ${from ? `${from.version} -> ` : ''}${to.version} (${result.mode === 'delta' ? 'delta' : 'whole download'})`
  io.stdout.write(`${what}\n`)
  io.stdout.write(
    `fetched ${result.bytesFetched} of ${result.archiveBytes} bytes (${percent(result.bytesFetched, result.archiveBytes)}) in ${result.requests} requests\n`,
  )
  if (result.mode !== 'current') {
    io.stdout.write(`downloaded ${result.downloaded.length} files: ${result.downloaded.join(', ')}\n`)
    io.stdout.write(`reused ${result.reused.length} files, removed ${result.removed.length}\n`)
  }
  return EXIT.ok
}
