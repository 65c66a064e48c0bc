/**
 * The two engines behind one interface, each writing the normal form of README.md ("The normal
 * form"): inkjs 2.4.0 (its compiler, in memory) and `@spkg/story` (its public run API).
 */
import type { StorySourceLike } from '@spkg/manifest'
import { Compiler, type Story } from 'inkjs/full'
import { checkStory, createStoryRun } from '../../src/index.ts'
import type { Pair } from './pair.ts'

/** A walk along one path: what the engine showed, and the menu size at the pause it stopped at. */
export interface Walk {
  lines: string[]
  /** The number of entries offered at the last pause; undefined when the story ended. */
  menu?: number
}

/** One engine playing one story: each walk starts afresh with `seed` and answers pauses by `path`. */
export interface Player {
  readonly engine: 'ink' | 'spkg'
  /**
   * Plays from the start, answering the n-th pause with entry `path[n]` (0-based, in menu order);
   * stops at the first pause after the path is used up, or at the end.
   */
  walk(path: readonly number[], seed: number): Promise<Walk>
}

/** Steps (lines of ink, events of spkg) one walk may take: a story that loops without a pause stops here. */
const MAX_STEPS = 10_000

/** Whitespace runs become one space; the ends are trimmed. */
export const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim()

/** A text (a line of ink, a block of spkg): one `| line` per non-empty line. */
export function textLines(text: string): string[] {
  return text
    .split('\n')
    .map(collapse)
    .filter((l) => l !== '')
    .map((l) => `| ${l}`)
}

/** The tags of the text before: one `# tag` each. */
export const tagLines = (tags: readonly string[]): string[] => tags.map((t) => `# ${collapse(t)}`)

/** An entry offered at a pause, its tags after it. */
export const optionLine = (label: string, tags: readonly string[]): string =>
  [`? ${collapse(label)}`, ...tags.map((t) => `#${collapse(t)}`)].join(' ')

export const chosenLine = (label: string): string => `> ${collapse(label)}`

export const END = '-- end'

export interface CompiledInk {
  story: Story | undefined
  errors: string[]
  warnings: string[]
}

const compiled = new Map<string, CompiledInk>()

/** Compiles ink source with inkjs's compiler, once per source text (the result is cached). */
export function compileInk(source: string): CompiledInk {
  const cached = compiled.get(source)
  if (cached) return cached
  const compiler = new Compiler(source)
  let story: Story | undefined
  try {
    story = compiler.Compile()
  } catch (e) {
    if (compiler.errors.length === 0) throw e
  }
  const result = { story, errors: [...compiler.errors], warnings: [...compiler.warnings] }
  compiled.set(source, result)
  return result
}

/**
 * inkjs playing the compiled story directly. Not through `story.ToJson()` and `new Story(json)`:
 * that round trip turns ink's whole floats into integers in JavaScript (`7 / 2.0` would print 3).
 */
export function inkPlayer(story: Story): Player {
  return {
    engine: 'ink',
    async walk(path, seed) {
      const lines: string[] = []
      // An error found while making a line comes after that line, as spkg's diagnostics come after their block.
      const errors: string[] = []
      story.onError = (message) => errors.push(`! ink: ${collapse(message)}`)
      story.ResetState()
      story.state.storySeed = seed
      story.state.previousRandom = 0
      let used = 0
      let steps = 0
      for (;;) {
        while (story.canContinue) {
          const text = story.Continue() ?? ''
          lines.push(...textLines(text), ...tagLines(story.currentTags ?? []), ...errors.splice(0))
          if (++steps > MAX_STEPS) return { lines: [...lines, '! runaway'] }
        }
        const choices = story.currentChoices
        lines.push(...errors.splice(0))
        if (choices.length === 0) return { lines: [...lines, END] }
        lines.push(...choices.map((c) => optionLine(c.text, c.tags ?? [])))
        if (used === path.length) return { lines, menu: choices.length }
        const k = path[used++]!
        const choice = choices[k]
        if (!choice) throw new Error(`ink: no entry ${k} at pause ${used}`)
        lines.push(chosenLine(choice.text))
        story.ChooseChoiceIndex(k)
      }
    },
  }
}

/**
 * The in-memory source of a pair's spkg side (one object per pair, so compiled parts are cached).
 * `pair.options.lang` (`// parity: lang=1.1`) is its `lang`, the story's `story_lang`, which the
 * engine reads its parts and modules at (README.md, "Story language 1.1").
 */
export function pairSource(pair: Pair): StorySourceLike {
  return {
    id: `ink-parity-${pair.name}`,
    parts: Object.keys(pair.parts),
    readPart: (path) => pair.parts[path],
    modules: Object.entries(pair.modules).map(([path, source]) => ({ path, source })),
    ...(pair.options.lang ? { lang: pair.options.lang } : {}),
  }
}

/**
 * The run options of a pair: the seed. The story language is not a run option: the engine reads
 * it from the source (`pairSource`), and checkStory gets it as `storyLang` (`checkPair`).
 */
export function runOptions(_pair: Pair, seed: number): { seed: number } {
  return { seed }
}

/** `@spkg/story` playing a pair through `createStoryRun`. Options first, then live links. */
export function spkgPlayer(pair: Pair): Player {
  const source = pairSource(pair)
  return {
    engine: 'spkg',
    async walk(path, seed) {
      const run = createStoryRun(source, runOptions(pair, seed))
      const lines: string[] = []
      let used = 0
      let steps = 0
      for (let e = await run.next(); e; e = await run.next()) {
        if (++steps > MAX_STEPS) return { lines: [...lines, '! runaway'] }
        switch (e.type) {
          case 'part-entered':
            break
          case 'block':
            if (e.block.kind === 'media') lines.push(`| [${e.block.media} ${e.block.path}]`)
            else lines.push(...textLines(e.block.text))
            lines.push(...tagLines(e.block.tags))
            break
          case 'pause': {
            const { options, links } = e
            lines.push(
              ...options.map((o) => optionLine(o.text, o.tags)),
              ...links.map((l) => optionLine(l.text, [])),
            )
            if (used === path.length) return { lines, menu: options.length + links.length }
            const k = path[used++]!
            const option = options[k]
            const link = links[k - options.length]
            if (option) run.choose({ option: option.id })
            else if (link) run.choose({ link: link.target })
            else throw new Error(`spkg: no entry ${k} at pause ${used}`)
            break
          }
          case 'chosen':
            // ink takes a fallback (`* -> target`) silently: so is ours in the normal form.
            if (!e.auto) lines.push(chosenLine(e.text))
            break
          case 'diagnostic':
            lines.push(`! ${e.diagnostic.code}: ${collapse(e.diagnostic.message)}`)
            break
          case 'end':
            lines.push(END)
            break
        }
      }
      return { lines }
    },
  }
}

/** checkStory's findings for a pair's spkg side, infos left out (a pair may use implicit ids). */
export function checkPair(pair: Pair): string[] {
  const parts = Object.keys(pair.parts)
  return checkStory({
    parts: pair.parts,
    order: parts,
    modules: pair.modules,
    flat: pair.flat,
    ...(pair.options.lang ? { storyLang: pair.options.lang } : {}),
  })
    .filter((d) => d.severity !== 'info')
    .map((d) => `${d.path}${d.line ? `:${d.line}:${d.column}` : ''} ${d.severity} ${d.code}: ${d.message}`)
}
