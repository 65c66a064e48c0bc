/**
 * The story language's static checks on a whole package, through `@spkg/story`'s `checkStory`:
 * syntax of every part and module, gate and link targets (`story/unknown-part`,
 * `story/unknown-id`), unreachable sections, undeclared variables, missing media, modules,
 * externs against `requires`, functions and arity, once-only options without ids.
 */
import type { Diagnostic, Manifest } from '@spkg/manifest'
import { checkStory, tabBarVariables } from '@spkg/story'

/** The story files of a package and what the checker needs to know about the package. */
export interface StoryCheckInput {
  /** Every `.sty` file of the archive, path → text (or its UTF-8 bytes). */
  parts: ReadonlyMap<string, string | Uint8Array>
  /** Parts in play order (the entry first). */
  order: readonly string[]
  /** Every `.xty` module, path → text. */
  modules: ReadonlyMap<string, string>
  /** Every file path of the archive (for missing media). */
  files: readonly string[]
  manifest?: Manifest
  /** `session.json` values. */
  session?: Record<string, unknown>
  layout: 'packaged' | 'flat'
  /** The story-language version to read the files at, beating the manifest's (`--lang`). */
  storyLang?: string
}

/**
 * Runs `checkStory` on the package's story files. Never throws on bad input.
 *
 * @example
 * storyChecks({ parts: new Map([['a.sty', '[[ b.sty ]]']]), order: ['a.sty'], modules: new Map(), files: ['a.sty'], layout: 'flat' })
 * // [{ code: 'story/unknown-part', path: 'a.sty', line: 1, ... }]
 */
export function storyChecks(input: StoryCheckInput): Diagnostic[] {
  const m = input.manifest
  return checkStory({
    parts: Object.fromEntries(input.parts),
    order: [...input.order],
    modules: Object.fromEntries(input.modules),
    assets: [...input.files],
    flat: input.layout === 'flat',
    ...(m?.requires ? { requires: m.requires } : {}),
    ...(input.storyLang !== undefined
      ? { storyLang: input.storyLang }
      : m?.story_lang !== undefined
        ? { storyLang: m.story_lang }
        : {}),
    ...(m?.extensions ? { extensions: m.extensions } : {}),
    ...(input.session ? { session: input.session } : {}),
    hostVariables: tabBarVariables(m),
  })
}
