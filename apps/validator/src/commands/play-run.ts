/**
 * The work of `play.ts` (loaded only when the command runs, so `spkg --help` stays light):
 * `spkg play`: plays a story (a `.spkg`, a story folder or one `.sty` file) in the terminal,
 * scripted with `--choose`, or as N seeded random walks; saves and resumes reading states in the
 * `@spkg/state` format. Before play starts it reports what `spkg validate` finds in the story
 * (the reader's findings and the story checks, infos left out); play then goes on unless the
 * reader refuses the package (a fatal problem), and the exit code is 1 when there was an error.
 */
import { type Diagnostic, hasErrors, parseReadingStateText, parseSessionText } from '@spkg/manifest'
import { isProgressivePackage, type SpkgPackage, type StorySource } from '@spkg/reader'
import { serializeReadingState } from '@spkg/state'
import {
  createStoryRun,
  parseStory,
  readingLang,
  resumeStoryRun,
  type StoryEvent,
  type StoryRun,
  unminifyStory,
} from '@spkg/story'
import { type CliIO, type CommandContext, EXIT, type ExitCode, IOFailure, UsageError } from '../cli-types'
import {
  checkPackageUrl,
  classifyInput,
  inputFailure,
  readInput,
  resolvePath,
  writeOutputAtomic,
} from '../io'
import { type ChooseItem, describeChoices, parseChooseList } from '../play/choose-list'
import { createLineReader } from '../play/line-reader'
import {
  type LoadedStory,
  type LoadStoryOptions,
  loadStory,
  loadStoryBytes,
  loadStoryUrl,
} from '../play/load-story'
import { withOriginalNames } from '../play/named-run'
import {
  type CatalogueEnd,
  type CatalogueOption,
  type CatalogueSection,
  catalogueEnds,
  catalogueOptions,
  catalogueSections,
  type OptionNesting,
} from '../play/option-catalogue'
import { playRun } from '../play/play-loop'
import { randomWalk } from '../play/random-walk'
import { diagnosticToJson, eventToJson, eventToText } from '../play/render-event'
import { checkLangInput, parseLangOption } from '../play/story-lang'
import { writeWalkReport } from '../play/walk-report'
import { formatDiagnosticLine, parseFormat, summarize, useColor } from '../report'
import { readRepository } from '../repository-input'
import { readDecryptionKey } from '../validate/decryption-key'
import { readNamespaces } from '../validate/trusted-keys'

function parseUint32(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined
  const s = String(value)
  if (!/^\d{1,10}$/.test(s) || Number(s) > 0xffffffff)
    throw new UsageError(`${name} must be an integer from 0 to 4294967295 (got '${s}')`)
  return Number(s)
}

function parseCount(value: unknown, name: string, max: number): number | undefined {
  if (value === undefined) return undefined
  const s = String(value)
  if (!/^\d+$/.test(s) || Number(s) < 1 || Number(s) > max)
    throw new UsageError(`${name} must be an integer from 1 to ${max} (got '${s}')`)
  return Number(s)
}

function decode(bytes: Uint8Array, file: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new UsageError(`${file} is not valid UTF-8 text`)
  }
}

/** The same finding, for leaving out at run time what was reported before play. */
const findingKey = (d: Diagnostic) =>
  `${d.code}\u0000${d.path}\u0000${d.line}\u0000${d.column}\u0000${d.message}`

/** Prints diagnostics outside the event stream: json lines on stdout, text on stderr. */
function reportDiagnostics(io: CliIO, format: 'text' | 'json', diagnostics: readonly Diagnostic[]): void {
  const color = useColor(io, 'stderr')
  for (const d of diagnostics) {
    if (format === 'json')
      io.stdout.write(`${JSON.stringify({ type: 'diagnostic', ...diagnosticToJson(d) })}\n`)
    else io.stderr.write(`${formatDiagnosticLine(d, color)}\n`)
  }
}

export async function run({ values, positionals, io }: CommandContext): Promise<ExitCode> {
  const format = parseFormat(values.format, ['text', 'json'] as const)
  const seed = parseUint32(values.seed, '--seed')
  const walks = parseCount(values['random-walk'], '--random-walk', 1_000_000)
  const maxChoices = parseCount(values['max-choices'], '--max-choices', 1_000_000)
  const answers = typeof values.choose === 'string' ? parseChooseList(values.choose) : undefined
  if (walks === undefined) {
    for (const o of ['explore', 'max-choices'] as const)
      if (values[o] !== undefined) throw new UsageError(`--${o} needs --random-walk`)
  }
  if (walks !== undefined) {
    for (const o of ['choose', 'save', 'resume'] as const)
      if (values[o] !== undefined) throw new UsageError(`--random-walk cannot be combined with --${o}`)
  }
  if (values.resume !== undefined && values.session !== undefined)
    throw new UsageError('--resume restores the saved session; it cannot be combined with --session')
  if (values.resume !== undefined && values.seed !== undefined)
    throw new UsageError('--resume continues the saved rolls; it cannot be combined with --seed')

  const target = positionals[0] as string
  let session: LoadStoryOptions['session']
  if (typeof values.session === 'string') {
    const file = values.session
    const parsed = parseSessionText(decode(await readInput(io, file), file), { path: file })
    reportDiagnostics(io, format, parsed.diagnostics)
    if (!parsed.session || hasErrors(parsed.diagnostics)) return EXIT.invalid
    session = parsed.session
  }
  const decryptionKey = await readDecryptionKey(io, values['decryption-key'])
  const loadOptions: LoadStoryOptions = {
    ...(session ? { session } : {}),
    ...(decryptionKey ? { decryptionKey } : {}),
    hostNamespaces: readNamespaces(values['host-namespace']),
  }
  const lang = parseLangOption(values.lang)
  if (lang) loadOptions.lang = lang
  let loaded: LoadedStory
  try {
    loaded = await loadInput(io, target, format, loadOptions)
  } catch (e) {
    // In JSON the story that cannot be read is still one `diagnostic` line (then exit 2, said on stderr).
    const refused = format === 'json' ? inputFailure(e) : undefined
    if (refused) reportDiagnostics(io, format, [refused])
    throw e
  }
  try {
    return await playLoaded(loaded, target, format, { values, io, seed, walks, maxChoices, answers })
  } finally {
    loaded.package?.close()
  }
}

/** Opens what `target` names (a repository, a package URL, a file or a folder) as a story to play. */
async function loadInput(
  io: CliIO,
  target: string,
  format: 'text' | 'json',
  loadOptions: LoadStoryOptions,
): Promise<LoadedStory> {
  const input = await classifyInput(io, target)
  if (loadOptions.lang && (input.kind === 'repository' || input.kind === 'url' || input.kind === 'stdin'))
    await checkLangInput(loadOptions.lang, { kind: 'package' })
  let loaded: LoadedStory
  if (input.kind === 'repository') {
    const got = await readRepository(io, input.url)
    loaded = got.ok
      ? await loadStoryBytes(got.bytes, got.diagnostics, loadOptions)
      : { diagnostics: got.diagnostics }
  } else if (input.kind === 'url') {
    const shown = checkPackageUrl(input.url)
    let bytes = 0
    const json = (o: object) => format === 'json' && io.stdout.write(`${JSON.stringify(o)}\n`)
    json({ type: 'part-loading', part: null, url: shown })
    loaded = await loadStoryUrl(input.url, {
      ...loadOptions,
      onBytes: (n) => {
        bytes += n
      },
    })
    const failed = loaded.package ? undefined : loaded.diagnostics.find((d) => REMOTE_FAILURES.has(d.code))
    if (failed) throw new IOFailure(`cannot read '${shown}': ${failed.message}`, failed.code)
    const pkg = loaded.package
    // What the open fetched: the whole package, or (progressive) the entry and preloaded parts.
    json({
      type: 'part-loaded',
      part: pkg?.entry ?? null,
      bytes,
      ...(pkg ? { loaded: loadedParts(pkg) } : {}),
    })
    if (pkg && isProgressivePackage(pkg))
      pkg.onPartLoad((e) =>
        json({
          type: e.type,
          part: e.part,
          ...(e.bytes !== undefined ? { bytes: e.bytes } : {}),
          ...(e.diagnostic ? { code: e.diagnostic.code } : {}),
        }),
      )
  } else loaded = await loadStory(resolvePath(io, target), loadOptions)
  return loaded
}

/** A package URL's download failures: an I/O error (exit 2), as a file that cannot be read. */
const REMOTE_FAILURES = new Set(['pkg/fetch-failed', 'pkg/remote-changed'])

/** The parts present after the open: all of them, or a progressive package's loaded ones. */
const loadedParts = (pkg: SpkgPackage) => (isProgressivePackage(pkg) ? [...pkg.loadedParts] : pkg.parts)

async function playLoaded(
  loaded: LoadedStory,
  target: string,
  format: 'text' | 'json',
  {
    values,
    io,
    seed,
    walks,
    maxChoices,
    answers,
  }: {
    values: CommandContext['values']
    io: CliIO
    seed: number | undefined
    walks: number | undefined
    maxChoices: number | undefined
    answers: ChooseItem[] | undefined
  },
): Promise<ExitCode> {
  // Info notes (normalised manifest forms, once-only options without ids) are for `spkg validate`.
  const found = loaded.diagnostics.filter((d) => d.severity !== 'info')
  const source = loaded.source
  // A minified package plays with the author's names (events, answers); see play/named-run.ts.
  const named = (run: StoryRun) => (source?.names ? withOriginalNames(run, source.names) : run)
  let failed = hasErrors(loaded.diagnostics)
  if (!source || walks === undefined) {
    reportDiagnostics(io, format, found)
    if (!source) {
      if (!hasErrors(loaded.diagnostics)) io.stderr.write(`spkg play: ${target} has no story to play\n`)
      return EXIT.invalid
    }
    if (failed && format === 'text')
      io.stderr.write(
        `spkg play: ${target} has ${summarize(found)} (above; 'spkg validate' says more); playing on\n`,
      )
  }

  if (walks !== undefined) {
    const catalogue: CatalogueOption[] = []
    const sections: CatalogueSection[] = []
    const ends: { ends: CatalogueEnd[]; nesting: OptionNesting } = { ends: [], nesting: new Map() }
    const lang = readingLang(source.lang)
    for (const path of source.parts) {
      const read = await readPartText(source, path)
      if (read === undefined) continue
      // The catalogue of a minified package in the author's names, as the walk's events are.
      const text = source.names
        ? unminifyStory([{ path, text: read }], source.names, { lang })[0]!.text
        : read
      const { ast } = parseStory(text, { path, lang })
      catalogue.push(...catalogueOptions(ast))
      sections.push(...catalogueSections(ast))
      const found = catalogueEnds(ast)
      ends.ends.push(...found.ends)
      for (const [k, v] of found.nesting) ends.nesting.set(k, v)
    }
    const report = await randomWalk({
      walks,
      seed: seed ?? 0,
      start: (s) => named(createStoryRun(source, { seed: s })),
      catalogue,
      sections,
      ends,
      maxChoices,
      strategy: values.explore ? 'untried' : 'uniform',
    })
    // A finding reported before the walks is not listed again among the runtime diagnostics.
    const before = new Set(found.map(findingKey))
    const runtime = report.diagnostics.filter((d) => !before.has(findingKey(d.diagnostic)))
    writeWalkReport(io, format, { ...report, diagnostics: runtime }, target, found)
    return failed || report.diagnostics.some((d) => hasErrors([d.diagnostic])) ? EXIT.invalid : EXIT.ok
  }

  let storyRun: StoryRun
  if (typeof values.resume === 'string') {
    const file = values.resume
    const parsed = parseReadingStateText(decode(await readInput(io, file), file), {
      storyId: source.id,
      version: source.version,
    })
    reportDiagnostics(io, format, parsed.diagnostics)
    if (!parsed.state) return EXIT.invalid
    const resumed = await resumeStoryRun(source, parsed.state)
    // Resume problems (`story/resume-diverged`) also come through the run's event stream.
    failed ||= hasErrors(resumed.diagnostics)
    storyRun = named(resumed.run)
  } else {
    storyRun = named(createStoryRun(source, seed === undefined ? {} : { seed }))
  }

  const color = useColor(io)
  let replaying = false
  // A finding reported before play (a parse error, a gate to a missing part) is not repeated when
  // the run meets it.
  const reported = new Set(found.map(findingKey))
  const remote = loaded.package && isProgressivePackage(loaded.package) ? loaded.package : undefined
  const emit = (event: StoryEvent) => {
    // The 80% rule: a progressive package prefetches the next part as the reader nears the end of this one.
    const at = remote ? storyRun.progress : undefined
    if (at) remote!.progress(at.part, at.fraction)
    if (event.type === 'diagnostic' && reported.has(findingKey(event.diagnostic))) return
    // In text a replayed finding was said when it happened (the JSON stream keeps it, marked replay).
    if (event.type === 'diagnostic' && event.replay && format === 'text') return
    if (format === 'json') {
      io.stdout.write(`${JSON.stringify(eventToJson(event))}\n`)
      return
    }
    // The scroll-back of a resume starts and ends with a marker, so it reads apart from new text
    // without colours.
    if (event.replay && !replaying) {
      replaying = true
      io.stdout.write(`${color ? '\x1b[2m-- replay --\x1b[22m' : '-- replay --'}\n`)
    } else if (!event.replay && replaying) {
      replaying = false
      io.stdout.write(`${color ? '\x1b[2m-- resumed --\x1b[22m' : '-- resumed --'}\n`)
    }
    const text = eventToText(event, event.type === 'diagnostic' ? useColor(io, 'stderr') : color)
    if (text === undefined) return
    if (event.type === 'diagnostic') io.stderr.write(`${text}\n`)
    else io.stdout.write(`${text}\n`)
  }
  const interactive = answers === undefined && io.stdin !== undefined
  const outcome = await playRun(storyRun, {
    answers,
    emit,
    prompt: interactive
      ? {
          reader: createLineReader(io.stdin as AsyncIterable<Uint8Array | string>),
          // In JSON the prompt goes to standard error, keeping standard output one JSON object per line.
          write: (t) => {
            ;(format === 'json' ? io.stderr : io.stdout).write(t)
          },
        }
      : undefined,
  })
  failed ||= hasErrors(outcome.diagnostics)
  if (outcome.stop === 'refused') {
    failed = true
    io.stderr.write(
      `spkg play: the answer '${outcome.refused}' was refused at the pause ${outcome.pause?.key}${outcome.pause ? `; it accepts ${describeChoices(outcome.pause)}` : ''}\n`,
    )
  } else if (outcome.stop === 'event-limit') {
    failed = true
    io.stderr.write('spkg play: stopped after 1,000,000 events without a pause (a loop with no choice?)\n')
  } else if (outcome.stop === 'pause' && format === 'text' && !interactive) {
    io.stderr.write(`spkg play: stopped at the unanswered pause ${outcome.pause?.key}\n`)
  }
  if (typeof values.save === 'string') {
    await writeOutputAtomic(io, values.save, `${serializeReadingState(storyRun.saveState())}\n`)
  }
  return failed ? EXIT.invalid : EXIT.ok
}

/** A part's text for the random walk's catalogue; `undefined` when it cannot be read (reported before). */
async function readPartText(source: StorySource, path: string): Promise<string | undefined> {
  try {
    return await source.readPart(path)
  } catch {
    return undefined
  }
}
