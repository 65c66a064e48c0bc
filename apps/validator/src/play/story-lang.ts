/**
 * `--lang <version>` of `spkg play`, `spkg validate` and `spkg map`: the story-language version to
 * read a story that has no manifest to say it (a folder or one `.sty` file). A manifest that
 * declares `story_lang` wins, and a `--lang` that differs from it is a usage error; a package
 * (`.spkg`, a URL, a repository) is always read at its manifest's version.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { STORY_LANG_VERSIONS, type StoryLang, storyLangOf } from '@spkg/story'
import { UsageError } from '../cli-types'

/** The value of `--lang`, or undefined when it is not given. @throws UsageError for a version this tool does not read */
export function parseLangOption(value: unknown): StoryLang | undefined {
  if (value === undefined) return undefined
  const s = String(value)
  if (!(STORY_LANG_VERSIONS as readonly string[]).includes(s))
    throw new UsageError(`--lang must be ${STORY_LANG_VERSIONS.join(' or ')} (got '${s}')`)
  return s as StoryLang
}

/**
 * Checks `--lang` against the input: a folder's `manifest.json`, when it declares `story_lang`,
 * must say the same version; a `.sty` file is fine; anything else (a package) is refused.
 *
 * @throws UsageError when the manifest declares another version, or the input is a package
 */
export async function checkLangInput(
  lang: StoryLang,
  input: { kind: 'folder'; path: string } | { kind: 'sty' } | { kind: 'package' },
): Promise<void> {
  if (input.kind === 'sty') return
  if (input.kind === 'package')
    throw new UsageError(
      "--lang reads a story folder or a .sty file; a package is read at its manifest's story_lang",
    )
  let declared: unknown
  try {
    declared = (
      JSON.parse(await readFile(join(input.path, 'manifest.json'), 'utf8')) as { story_lang?: unknown }
    )?.story_lang
  } catch {
    return // no manifest, or one the package build reports
  }
  if (typeof declared !== 'string') return
  const r = storyLangOf(declared)
  if ('lang' in r && r.lang === lang) return
  throw new UsageError(
    `manifest.json declares "story_lang": "${declared}", which decides the version; --lang ${lang} differs (change story_lang in the manifest, or leave --lang out)`,
  )
}
