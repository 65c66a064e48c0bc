/**
 * The work of `inspect.ts` (loaded only when the command runs, so `spkg --help` stays light):
 * `spkg inspect <file.spkg>`: the quick look a catalog shows (title, id, version, layout) and the
 * archive listing, from the central directory and the manifest only.
 */
import { peekPackage } from '@spkg/reader/node'
import type { CommandContext, ExitCode } from '../cli-types'
import { EXIT } from '../cli-types'
import { isRefusal, readPackageInput } from '../io'
import { formatDiagnosticLine, parseFormat, printable, useColor, writeJson } from '../report'
import { readDecryptionKey, withCliAdvice } from '../validate/decryption-key'

/** Runs `spkg inspect` (its options and help are in `inspect.ts`). */
export async function runInspect({ values, positionals, io }: CommandContext): Promise<ExitCode> {
  const format = parseFormat(values.format, ['text', 'json'] as const)
  const file = positionals[0]!
  const decryptionKey = await readDecryptionKey(io, values['decryption-key'])
  const input = await readPackageInput(io, file)
  const peeked = isRefusal(input)
    ? { ok: false as const, diagnostics: [input.refused] }
    : await peekPackage(input, decryptionKey ? { decryptionKey } : {})
  const peek = peeked.ok ? peeked : { ...peeked, diagnostics: withCliAdvice(peeked.diagnostics) }
  const color = useColor(io)
  if (!peek.ok) {
    if (format === 'json') writeJson(io, { file, ok: false, diagnostics: peek.diagnostics })
    else {
      for (const d of peek.diagnostics) io.stdout.write(`${formatDiagnosticLine(d, color)}\n`)
      io.stdout.write(`${file}: cannot be read as a package\n`)
    }
    return EXIT.invalid
  }
  const m = peek.manifest
  const signed = m?.signed === true
  if (format === 'json') {
    writeJson(io, {
      file,
      ok: true,
      title: m?.title ?? null,
      author: m?.author ?? null,
      id: m?.id ?? null,
      version: m?.version ?? null,
      layout: peek.layout,
      type: peek.type,
      entry: peek.entry ?? null,
      signed,
      signature: m?.signature ?? null,
      entries: peek.entries,
      diagnostics: peek.diagnostics,
    })
    return EXIT.ok
  }
  const rows: [string, string][] = [
    ['title', m?.title ?? '(none)'],
    ['id', m?.id ?? '(none: flat layout)'],
    ['version', m?.version ?? '(none)'],
    ['layout', peek.layout],
    ['type', peek.type],
    ['entry', peek.entry ?? '(none)'],
    ['signed', signed ? `yes, ${m?.signature ?? 'no fingerprint declared'} (not verified here)` : 'no'],
  ]
  if (m?.author?.length) rows.splice(1, 0, ['author', m.author.map((a) => a.name).join(', ')])
  for (const [k, v] of rows) io.stdout.write(`${`${k}:`.padEnd(9)}${printable(v)}\n`)
  const total = peek.entries.reduce((n, e) => n + e.size, 0)
  const packed = peek.entries.reduce((n, e) => n + e.compressedSize, 0)
  io.stdout.write(`\n${peek.entries.length} entries, ${total} bytes (${packed} compressed):\n`)
  const w = Math.max(4, ...peek.entries.map((e) => String(e.size).length))
  const cw = Math.max(6, ...peek.entries.map((e) => String(e.compressedSize).length))
  io.stdout.write(`  ${'size'.padStart(w)}  ${'packed'.padStart(cw)}  method   path\n`)
  for (const e of peek.entries)
    io.stdout.write(
      `  ${String(e.size).padStart(w)}  ${String(e.compressedSize).padStart(cw)}  ${e.method.padEnd(7)}  ${printable(e.path)}\n`,
    )
  for (const d of peek.diagnostics)
    if (d.severity !== 'info') io.stdout.write(`${formatDiagnosticLine(d, color)}\n`)
  return EXIT.ok
}
