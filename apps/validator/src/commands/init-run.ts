/**
 * The work of `init.ts` (loaded only when the command runs): writes the files of a new story,
 * each with `wx` (never over an existing file), after checking that none of them exists.
 */
import { randomUUID } from 'node:crypto'
import { lstat, mkdir, rm, writeFile } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import type { CommandContext, ExitCode } from '../cli-types'
import { EXIT, IOFailure, UsageError } from '../cli-types'
import { resolvePath } from '../io'
import { canonicalSourceText } from '../pack/complete-manifest'
import { ACTION_REF } from '../project'

/** The `.gitignore` of a new story: keys and built packages never enter git. */
export const INIT_GITIGNORE = `# Secret signing keys and encryption keys: keep them out of git (and out of this folder).
*.sec
*.key
# Built packages
*.spkg
*.spkg.enc
node_modules/
`

/** The CI workflow of a new story (`.github/workflows/spkg.yml`): the project's action, `ACTION_REF`. */
export function initWorkflow(path: string): string {
  return `# Validates the story on every push and pull request: errors fail the build and appear as
# annotations on the changed lines. Rules and limits: spkg.config.json beside manifest.json.
name: spkg
on: [push, pull_request]
jobs:
  validate:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: ${ACTION_REF}
        with:
          path: ${path}
`
}

const COVER_SVG = (
  title: string,
) => `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="900" viewBox="0 0 600 900">
  <!-- A placeholder: replace it with your cover (assets/cover.webp, 600x900 or larger) and update "cover" in manifest.json. -->
  <rect width="600" height="900" fill="#1d2330"/>
  <text x="300" y="450" fill="#f3e6b0" font-family="serif" font-size="40" text-anchor="middle">${escapeXml(title)}</text>
</svg>
`

function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** The opening both templates share: a title, a first choice and the value it changes. */
const OPENING = (title: string) => `{set courage = 1}
# ${title.replace(/[#[\]{}\\]/g, '')} [#start]
The story begins. Write your opening here.
[#way]
* Go on bravely [#brave]
  {set courage += 1}
  You square your shoulders.
* Hesitate [#wait]
  You wait a moment, then go on.
`

/** The ending both templates share: what the choice changed decides its line. */
const ENDING = `{if courage > 1}You arrive, bold as ever.{else}You arrive, a little shaken.{end}
-> END
`

const START_PART = (title: string) =>
  `// The first part: the story starts here. See docs/writing-stories.md and docs/language.md.
${OPENING(title)}Courage: \${courage}.
[[ 0002-end.sty ]]
`

const END_PART = `// The second part: the gate at the end of 0001-start.sty leads here.
# The End [#end]
${ENDING}`

const FLAT_STORY = (
  title: string,
) => `// A flat story: this one file is the whole story. See docs/language.md.
${OPENING(title)}-> #ending
## The End [#ending]
${ENDING}`

/** The files of a new story, path relative to the folder → text. */
export function initFiles(options: {
  flat: boolean
  title: string
  author?: string
  language: string
  id?: string
  workflowPath?: string
}): Record<string, string> {
  const { title } = options
  const common = {
    '.gitignore': INIT_GITIGNORE,
    '.github/workflows/spkg.yml': initWorkflow(options.workflowPath ?? '.'),
  }
  if (options.flat) return { 'story.sty': FLAT_STORY(title), ...common }
  const manifest: Record<string, unknown> = {
    story_lang: '1.1',
    manifest: '1.0',
    id: options.id ?? randomUUID(),
    title,
    ...(options.author ? { author: [{ name: options.author }] } : {}),
    version: '0.1.0',
    language: options.language,
    cover: 'assets/cover.svg',
    parts: [
      { file: 'story/0001-start.sty', name: 'Start' },
      { file: 'story/0002-end.sty', name: 'The End' },
    ],
    assets: [{ file: 'assets/cover.svg' }],
  }
  const canonical = canonicalSourceText(manifest)
  if (canonical.text === undefined)
    throw new UsageError(canonical.diagnostics.map((d) => d.message).join('; ') || 'invalid manifest')
  const bad = canonical.diagnostics.find((d) => d.severity === 'error' || d.severity === 'fatal')
  if (bad) throw new UsageError(bad.message)
  return {
    'manifest.json': canonical.text,
    'story/0001-start.sty': START_PART(title),
    'story/0002-end.sty': END_PART,
    'assets/cover.svg': COVER_SVG(title),
    ...common,
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path)
    return true
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return false
    if (code === 'ENOTDIR') return true // a file stands where a folder would go
    throw e
  }
}

/** Runs `spkg init` (its options and help are in `init.ts`). */
export async function runInit({ values, positionals, io }: CommandContext): Promise<ExitCode> {
  const folderArg = positionals[0] as string
  if (folderArg === '') throw new UsageError('missing <folder>')
  const folder = resolvePath(io, folderArg)
  const title =
    typeof values.title === 'string' && values.title.trim() ? values.title.trim() : 'Untitled Story'
  if (/[\r\n]/.test(title)) throw new UsageError('--title must be one line')
  const language = typeof values.language === 'string' ? values.language : 'en'
  const author = typeof values.author === 'string' && values.author.trim() ? values.author.trim() : undefined
  const files = initFiles({ flat: values.flat === true, title, language, ...(author ? { author } : {}) })
  const taken: string[] = []
  for (const rel of Object.keys(files)) if (await exists(join(folder, rel))) taken.push(rel)
  if (taken.length > 0)
    throw new IOFailure(
      `'${folderArg}' already has ${taken.map((t) => `'${t}'`).join(', ')}; spkg init never overwrites a file (nothing written)`,
    )
  const written: string[] = []
  try {
    for (const [rel, text] of Object.entries(files)) {
      const path = join(folder, rel)
      await mkdir(dirname(path), { recursive: true })
      await writeFile(path, text, { flag: 'wx' })
      written.push(path)
    }
  } catch (e) {
    // Another process created one of the files meanwhile, or the disk is full: undo this run.
    for (const path of written) await rm(path, { force: true }).catch(() => {})
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'EEXIST') throw new IOFailure(`a file appeared in '${folderArg}' meanwhile; nothing written`)
    throw new IOFailure(`cannot write into '${folderArg}': ${(e as Error).message}`)
  }
  const rel = relative(io.cwd, folder)
  const shown = rel === '' ? '.' : rel.startsWith('..') ? folderArg : rel
  io.stdout.write(
    `created ${shown}: ${Object.keys(files).join(', ')}\n` +
      `Next: 'spkg play ${shown}', edit the .sty files, 'spkg validate ${shown}', then 'spkg pack ${shown} -o story.spkg'.\n` +
      'Guide: docs/writing-stories.md\n',
  )
  return EXIT.ok
}
