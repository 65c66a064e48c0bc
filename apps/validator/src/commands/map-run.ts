/**
 * The work of `map.ts` (loaded only when the command runs): loads the story as `spkg play` does,
 * parses its parts in reading order (a minified package's with the author's names, through its
 * names map), builds the map, adds random-walk reach and writes it.
 */
import { hasErrors } from '@spkg/manifest'
import { createStoryRun, type PartAst, parseStory, readingLang, unminifyStory } from '@spkg/story'
import { type CommandContext, EXIT, type ExitCode, UsageError } from '../cli-types'
import { resolvePath, writeOutputAtomic } from '../io'
import { loadStory } from '../play/load-story'
import { withOriginalNames } from '../play/named-run'
import { parseLangOption } from '../play/story-lang'
import { formatDiagnosticLine, useColor } from '../report'
import { readDecryptionKey } from '../validate/decryption-key'
import { readNamespaces } from '../validate/trusted-keys'
import { addReach, buildStoryMap } from './map-graph'
import { renderSvg, toDot, toHtml } from './map-render'

function parseNumber(value: unknown, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined
  const s = String(value)
  if (!/^\d{1,10}$/.test(s) || Number(s) < min || Number(s) > max)
    throw new UsageError(`${name} must be an integer from ${min} to ${max} (got '${s}')`)
  return Number(s)
}

/** Runs `spkg map` (its options and help are in `map.ts`). */
export async function runMap({ values, positionals, io }: CommandContext): Promise<ExitCode> {
  const output = values.output
  if (typeof output !== 'string') throw new UsageError('-o <file> is required (.svg, .html, .dot or .json)')
  const format = /\.(svg|html|dot|json)$/i.exec(output)?.[1]?.toLowerCase()
  if (!format) throw new UsageError(`-o must end .svg, .html, .dot or .json (got '${output}')`)
  const walks = parseNumber(values['random-walk'], '--random-walk', 1, 100_000)
  const seed = parseNumber(values.seed, '--seed', 0, 0xffffffff) ?? 0
  const decryptionKey = await readDecryptionKey(io, values['decryption-key'])
  const target = positionals[0]!
  const lang = parseLangOption(values.lang)
  const loaded = await loadStory(resolvePath(io, target), {
    ...(decryptionKey ? { decryptionKey } : {}),
    ...(lang ? { lang } : {}),
    hostNamespaces: readNamespaces(values['host-namespace']),
  })
  try {
    const color = useColor(io, 'stderr')
    for (const d of loaded.diagnostics)
      if (d.severity === 'error' || d.severity === 'fatal')
        io.stderr.write(`${formatDiagnosticLine(d, color)}\n`)
    const source = loaded.source
    if (!source) {
      if (!hasErrors(loaded.diagnostics)) io.stderr.write(`spkg map: ${target} has no story to map\n`)
      return EXIT.invalid
    }
    const asts: PartAst[] = []
    const lang = readingLang(source.lang)
    for (const path of source.parts) {
      let text: string | undefined
      try {
        text = await source.readPart(path)
      } catch {
        text = undefined
      }
      if (text === undefined) continue
      // A minified package is drawn with the author's names, as `spkg unminify` restores them.
      if (source.names) text = unminifyStory([{ path, text }], source.names, { lang })[0]!.text
      asts.push(parseStory(text, { path, lang }).ast)
    }
    let storyMap = buildStoryMap(asts)
    const names = source.names
    if (walks !== undefined)
      storyMap = await addReach(storyMap, walks, seed, (s) => {
        const run = createStoryRun(source, { seed: s })
        return names ? withOriginalNames(run, names) : run
      })
    let text: string
    if (format === 'json') text = `${JSON.stringify(storyMap, null, 2)}\n`
    else if (format === 'dot') text = toDot(storyMap)
    else {
      const svg = await renderSvg(storyMap)
      text = format === 'html' ? toHtml(svg, target) : svg
    }
    await writeOutputAtomic(io, output, text)
    io.stderr.write(
      `spkg map: ${output}: ${storyMap.nodes.length} nodes, ${storyMap.edges.length} edges in ${storyMap.parts.length} parts\n`,
    )
    return EXIT.ok
  } finally {
    loaded.package?.close()
  }
}
