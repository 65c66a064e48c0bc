/**
 * `spkg init <folder>`: a new story an author can play at once: a canonical manifest with a fresh
 * UUID, two parts that link, a cover placeholder, a `.gitignore` that keeps keys out of git and a
 * CI workflow that validates the story on every push. It never overwrites a file.
 */
import type { Command } from '../cli-types'

/** `spkg init`: see the module comment and `--help`. */
export const init: Command = {
  path: ['init'],
  summary: 'create a new story folder that validates and plays at once',
  usage: 'init <folder> [--flat] [--title <text>] [--author <name>] [--language <tag>]',
  description: `Writes a ready story into <folder> (created if needed): manifest.json in canonical form with a
fresh UUID, story/0001-start.sty and story/0002-end.sty (the first links to the second),
assets/cover.svg (a placeholder to replace), a .gitignore that keeps secret keys, encryption keys
and built packages out of git, and .github/workflows/spkg.yml, which runs 'spkg validate' on every
push through this repository's action. With --flat it writes one story.sty instead (a flat story
has no manifest, cover or second part). Hidden files are never packed. An existing file is never
overwritten: when any file it would write exists, nothing is written (exit 2).`,
  positionals: [1, 1],
  options: {
    flat: { type: 'boolean', description: 'a flat story: one story.sty, no manifest' },
    title: { type: 'string', short: 't', valueName: '<text>', description: 'the story title' },
    author: { type: 'string', valueName: '<name>', description: "the author's name" },
    language: {
      type: 'string',
      valueName: '<tag>',
      description: 'BCP-47 language of the story',
      default: 'en',
    },
  },
  examples: ['spkg init my-story --title "The Lighthouse"', 'spkg init sketch --flat'],
  run: (ctx) => import('./init-run').then((m) => m.runInit(ctx)),
}
