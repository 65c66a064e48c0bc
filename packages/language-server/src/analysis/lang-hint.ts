/**
 * A story read at 1.0 that is written in 1.1 (a flat folder without a manifest, most often: it
 * reads at 1.0, as `spkg validate` reads it) gets 1.0's findings on every 1.1 line: `{seq}` is an
 * unknown command, `-> #t ->` a bad jump, `turns()` an unknown function. Each finding of the 1.0
 * check that a check at 1.1 does not report gets a note saying so and how to turn 1.1 on. The
 * parser's own advice is kept: a finding that already names 1.1 (the `story/ink-syntax` of a glue
 * or of a jump at a line's end says "set story_lang to 1.1") gets only where to set it, and
 * nothing when the folder has a manifest.
 */
import type { Diagnostic } from '@spkg/manifest'
import { type CheckStoryInput, checkStory, readingLang } from '@spkg/story'

/** How to turn 1.1 on for a folder read at 1.0: what the finding's note says. */
export interface LangHint {
  /** The advice, for example `add "story_lang": "1.1" to manifest.json`. */
  how: string
  /** The folder has a manifest.json, where the parser's own "set story_lang to 1.1" applies as it says. */
  manifest: boolean
}

/** Findings the note is added to: what makes an author look (an `info` stays as it is). */
const NOTED = new Set(['fatal', 'error', 'warning'])

/**
 * `checkStory(input)`, with a note on each error and warning that reading the story at 1.1 would
 * not report, when the input is read at 1.0 and `hint` is given. Costs a second check, at 1.1,
 * only when the first one finds an error or a warning.
 */
export function checkWithLangHint(input: CheckStoryInput, hint: LangHint | undefined): Diagnostic[] {
  const found = checkStory(input)
  if (!hint || readingLang(input.storyLang) !== '1.0' || !found.some((d) => NOTED.has(d.severity)))
    return found
  const key = (d: Diagnostic) => `${d.path ?? ''}\n${d.line ?? 0}\n${d.code}`
  const at11 = new Set(checkStory({ ...input, storyLang: '1.1' }).map(key))
  return found.map((d) => {
    if (!NOTED.has(d.severity) || at11.has(key(d))) return d
    if (!/\b1\.1\b/.test(d.message))
      return { ...d, message: `${d.message} (not reported at story language 1.1; ${hint.how})` }
    return hint.manifest ? d : { ...d, message: `${d.message} (${hint.how})` }
  })
}
