/**
 * The story-language versions this library reads, and the reading of `manifest.story_lang`. A leaf.
 *
 * 1.1 is additive: every 1.0 story plays the same at 1.1's engine, and `story_lang: '1.1'` is what
 * unlocks the new syntax (text a 1.0 story may hold, such as a line ending in ` -> #id`, keeps its
 * 1.0 meaning unless the story asks for 1.1).
 */

/** The versions of the story language a story may declare, oldest first. */
export const STORY_LANG_VERSIONS = ['1.0', '1.1'] as const

/** A story-language version this library reads. */
export type StoryLang = (typeof STORY_LANG_VERSIONS)[number]

/** The newest story-language version this library reads. */
export const STORY_LANG: StoryLang = '1.1'

/**
 * The version to read a story at, from its `manifest.story_lang` (absent: `1.0`), or why it
 * cannot be read: another major version, or a 1.x newer than this library knows (`1.2`). The
 * patch level is ignored (`1.1.3` reads as `1.1`).
 */
export function storyLangOf(declared: string | undefined): { lang: StoryLang } | { error: string } {
  if (declared === undefined) return { lang: '1.0' }
  const m = /^(\d+)(?:\.(\d+))?(?:\.\d+)*$/.exec(declared)
  if (m?.[1] !== '1')
    return {
      error: `story_lang '${declared}' is not a 1.x version of the story language; this library reads ${STORY_LANG_VERSIONS.join(' and ')}`,
    }
  const lang = `1.${Number(m[2] ?? 0)}`
  if (!(STORY_LANG_VERSIONS as readonly string[]).includes(lang))
    return {
      error: `story_lang '${declared}' is newer than this library, which reads ${STORY_LANG_VERSIONS.join(' and ')}; update @spkg/story (or the reader app)`,
    }
  return { lang: lang as StoryLang }
}

/** True when `lang` has everything of `version` (`atLeast('1.1', '1.0')`). */
export function atLeast(lang: StoryLang, version: StoryLang): boolean {
  return STORY_LANG_VERSIONS.indexOf(lang) >= STORY_LANG_VERSIONS.indexOf(version)
}

/** The version to read a story's files at: its declared one, or the newest this library knows when it cannot read the declared one (tools go on checking what they can). */
export function readingLang(declared: string | undefined): StoryLang {
  const r = storyLangOf(declared)
  return 'lang' in r ? r.lang : STORY_LANG
}
