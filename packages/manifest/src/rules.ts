/**
 * Cross-field rules of the canonical manifest. Each rule is a small named function that
 * pushes diagnostics; they run after normalisation and type validation.
 */
import type { Diagnostic } from './diagnostic'
import { toPointer } from './diagnostic'
import { createDiagnostic } from './diagnostic-helpers'
import { KNOWN_MANIFEST_VERSIONS, KNOWN_STORY_LANG_VERSIONS } from './fields'
import { COMMON_SAFE_PATH, CONTROL_CHARACTER, checkArchivePath, SAFE_SEGMENT } from './paths'
import type { Manifest } from './schema'

type Push = (d: Diagnostic) => void
type Rule = (m: Manifest, push: Push, path: string) => void

// Both cases spelt out rather than the `i` flag (the same set here), which costs a case-folding
// compile on first use.
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

const versions: Rule = (m, push, path) => {
  const check = (field: 'story_lang' | 'manifest', known: readonly string[]) => {
    const v = m[field]
    if (v !== undefined && !known.includes(v))
      push(
        createDiagnostic(
          'manifest/unknown-version',
          `"${field}" is "${v}", a version this reader does not know (it knows ${known.join(', ')}); the package still loads.`,
          { path, field: `/${field}` },
        ),
      )
  }
  check('story_lang', KNOWN_STORY_LANG_VERSIONS)
  check('manifest', KNOWN_MANIFEST_VERSIONS)
}

/**
 * `version`: what authors write (`1.2.3`, `1.0-beta.2`, `2024-05-01`, `v3`, `1.0.0+build.5`):
 * letters, digits, `.`, `_`, `+` and `-`, starting and ending with a letter or digit, no `..`.
 * Never a path, a space or a control character: the platform names stored versions by it.
 * Publishing policy, like the 100-character bound: `checkManifestBounds` checks it (`manifest/invalid-version`).
 */
export const VERSION_PATTERN = /^(?!.*\.\.)[A-Za-z0-9](?:[A-Za-z0-9._+-]*[A-Za-z0-9])?$/

const idFormat: Rule = (m, push, path) => {
  if (typeof m.id === 'string' && !UUID.test(m.id))
    push(
      createDiagnostic('manifest/invalid-id', `"id" should be a UUID, got "${m.id}".`, {
        path,
        field: '/id',
      }),
    )
}

/**
 * Display texts (the title and the author names) are shown to readers and printed by tools: a
 * control character there (a NUL, an ANSI escape, a line break in a one-line name) is refused as
 * an error, like one in an archive path. The value is kept; the message names the code point
 * instead of echoing it.
 */
const displayText: Rule = (m, push, path) => {
  // Only a text with a control character goes further (a call, a pointer, a message).
  if (m.title !== undefined && CONTROL_CHARACTER.test(m.title))
    controlCharacter(push, path, ['title'], m.title)
  const authors = m.author
  if (authors)
    for (let i = 0; i < authors.length; i++) {
      const name = authors[i]!.name
      if (CONTROL_CHARACTER.test(name)) controlCharacter(push, path, ['author', i, 'name'], name)
    }
}

function controlCharacter(push: Push, path: string, segments: (string | number)[], value: string): void {
  const at = value.search(CONTROL_CHARACTER)
  const field = toPointer(segments)
  const hex = value.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0')
  push(
    createDiagnostic(
      'manifest/invalid-value',
      `"${field.slice(1)}" contains a control character (U+${hex} at character ${at + 1}); display text must be printable.`,
      { path, field },
    ),
  )
}

/** Checks one archive path field; `dir` and `ext` add the layout rule (parts in story/, .sty...). */
function checkPath(
  push: Push,
  path: string,
  segments: (string | number)[],
  value: string,
  rule?: { dir?: string; ext?: string; what: string },
): boolean {
  const problem = checkArchivePath(value)
  // The common case (a safe path where it belongs) builds no pointer or label.
  if (!problem && (!rule?.dir || value.startsWith(rule.dir)) && (!rule?.ext || value.endsWith(rule.ext)))
    return true
  const field = toPointer(segments)
  const label = `"${field.slice(1)}"`
  if (problem) {
    push(createDiagnostic('manifest/unsafe-path', `${label} ("${value}") ${problem}.`, { path, field }))
    return false
  }
  if (rule?.dir && !value.startsWith(rule.dir))
    push(
      createDiagnostic(
        'manifest/path-outside-dir',
        `${label} ("${value}") must lie under ${rule.dir} (${rule.what}).`,
        {
          path,
          field,
        },
      ),
    )
  else if (rule?.ext && !value.endsWith(rule.ext))
    push(
      createDiagnostic(
        'manifest/invalid-value',
        `${label} ("${value}") must be a ${rule.ext} file (${rule.what}).`,
        {
          path,
          field,
        },
      ),
    )
  return true
}

function checkDuplicates(push: Push, path: string, field: string, values: readonly string[]): void {
  const seen = new Set<string>()
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!
    if (seen.has(v))
      push(
        createDiagnostic('manifest/duplicate-entry', `"${field}/${i}" repeats "${v}", listed earlier.`, {
          path,
          field: toPointer([field, i]),
        }),
      )
    seen.add(v)
  }
}

/** The `file` of each member (a loop: this runs cold on every manifest). */
function files(list: readonly { file: string }[]): string[] {
  const out = new Array<string>(list.length)
  for (let i = 0; i < list.length; i++) out[i] = list[i]!.file
  return out
}

const PART_RULE = { dir: 'story/', ext: '.sty', what: 'story parts' }
const ASSET_RULE = { dir: 'assets/', what: 'media' }
const EXTENSION_RULE = { ext: '.xty', what: 'extension modules' }

/** A common safe path ({@link COMMON_SAFE_PATH}), and one under `story/` ending in `.sty`. */
const SAFE = `${SAFE_SEGMENT}(?:\\/${SAFE_SEGMENT})*`
const PART = `story\\/(?:${SAFE_SEGMENT}\\/)*${SAFE_SEGMENT}\\.sty`
/** One of them per line. */
const SAFE_LINES = new RegExp(`^${SAFE}(?:\\n${SAFE})*$`)
const PART_LINES = new RegExp(`^${PART}(?:\\n${PART})*$`)

/**
 * The paths of `list` joined by line breaks when each matches `lines` on its own, else
 * `undefined`: one native test for the whole list, no call per path; the line count rules out
 * a path that spans lines.
 */
function linesIfAllMatch(list: readonly string[], lines: RegExp): string | undefined {
  const text = list.join('\n')
  return lines.test(text) && text.split('\n').length === list.length ? text : undefined
}

/**
 * The archive paths of a manifest. The long lists (parts, integrity) are tested whole in the
 * common case (every path safe, where it belongs, no repeat); the checks that find something
 * live in functions of their own, so a clean manifest never compiles them (this runs cold).
 */
const paths: Rule = (m, push, path) => {
  if (m.cover !== undefined) checkPath(push, path, ['cover'], m.cover)
  const partFiles = m.parts ? files(m.parts) : undefined
  if (partFiles && partFiles.length > 0 && linesIfAllMatch(partFiles, PART_LINES) === undefined)
    checkPartFiles(push, path, partFiles)
  if (m.assets) checkAssetFiles(push, path, m.assets)
  m.extensions?.forEach((e, i) => {
    checkPath(push, path, ['extensions', i], e, EXTENSION_RULE)
  })
  if (m.build?.names_map !== undefined) checkPath(push, path, ['build', 'names_map'], m.build.names_map)
  const integrity = m.integrity
  const keys = integrity ? Object.keys(integrity) : []
  if (integrity && keys.length > 0) {
    // Every key a safe path and none the map cannot cover (manifest.json, META-PKG/): nothing to report.
    const keyLines = Object.hasOwn(integrity, 'manifest.json') ? undefined : linesIfAllMatch(keys, SAFE_LINES)
    if (keyLines === undefined || keyLines.startsWith('META-PKG/') || keyLines.includes('\nMETA-PKG/'))
      checkIntegrityKeys(push, path, keys)
  }
  // Repeats are looked for only when one native Set build says there is one.
  if (partFiles && new Set(partFiles).size !== partFiles.length)
    checkDuplicates(push, path, 'parts', partFiles)
  if (m.assets) checkDuplicates(push, path, 'assets', files(m.assets))
  if (m.extensions) checkDuplicates(push, path, 'extensions', m.extensions)
}

/** Each part file in turn, the safe ones inline: no call and no pointer per safe path. */
function checkPartFiles(push: Push, path: string, partFiles: readonly string[]): void {
  for (let i = 0; i < partFiles.length; i++) {
    const file = partFiles[i]!
    if (!(COMMON_SAFE_PATH.test(file) && file.startsWith('story/') && file.endsWith('.sty')))
      checkPath(push, path, ['parts', i, 'file'], file, PART_RULE)
  }
}

function checkAssetFiles(push: Push, path: string, assets: readonly { file: string }[]): void {
  for (let i = 0; i < assets.length; i++) {
    const file = assets[i]!.file
    if (!(COMMON_SAFE_PATH.test(file) && file.startsWith('assets/')))
      checkPath(push, path, ['assets', i, 'file'], file, ASSET_RULE)
  }
}

function checkIntegrityKeys(push: Push, path: string, keys: readonly string[]): void {
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    if (!COMMON_SAFE_PATH.test(key) && !checkPath(push, path, ['integrity', key], key)) continue
    if (key === 'manifest.json' || key.startsWith('META-PKG/'))
      push(
        createDiagnostic(
          'manifest/integrity-self',
          `"integrity" lists "${key}", which it cannot cover (manifest.json and META-PKG/ are covered by the checksum file).`,
          { path, field: toPointer(['integrity', key]) },
        ),
      )
  }
}

const progressive: Rule = (m, push, path) => {
  let partFiles: Set<string> | undefined
  for (const field of ['preload', 'locked'] as const) {
    const list = m[field]
    if (!list) continue
    partFiles ??= new Set(m.parts?.map((p) => p.file))
    if (m.loading !== 'progressive' && list.length > 0)
      push(
        createDiagnostic(
          'manifest/progressive-only',
          `"${field}" is only meaningful with progressive loading ("loading": "progressive").`,
          { path, field: `/${field}` },
        ),
      )
    list.forEach((p, i) => {
      if (!checkPath(push, path, [field, i], p)) return
      if (!partFiles?.has(p))
        push(
          createDiagnostic(
            'manifest/unknown-part',
            `"${field}/${i}" ("${p}") is not the file of any entry of "parts".`,
            {
              path,
              field: toPointer([field, i]),
            },
          ),
        )
    })
  }
}

const packageType: Rule = (m, push, path) => {
  const type = m.type ?? 'story'
  if (type === 'instruction' && m.instruction !== undefined)
    push(
      createDiagnostic(
        'manifest/type-mismatch',
        '"instruction" links a story to its instruction package; an instruction package cannot have one.',
        { path, field: '/instruction' },
      ),
    )
  if (type === 'story' && m.stories !== undefined)
    push(
      createDiagnostic(
        'manifest/type-mismatch',
        '"stories" lists the stories an instruction package covers; a story package cannot have it (set "type": "instruction").',
        { path, field: '/stories' },
      ),
    )
}

const readers: Rule = (m, push, path) => {
  m.readers?.forEach((r, i) => {
    if (!Number.isInteger(r) || r < 1)
      push(
        createDiagnostic(
          'manifest/invalid-readers',
          `"readers/${i}" must be a positive whole number, got ${r}.`,
          {
            path,
            field: toPointer(['readers', i]),
          },
        ),
      )
  })
}

const age: Rule = (m, push, path) => {
  for (const k of ['min', 'max'] as const) {
    const v = m.age?.[k]
    if (v !== undefined && (!Number.isInteger(v) || v < 0))
      push(
        createDiagnostic(
          'manifest/invalid-value',
          `"age/${k}" must be a whole number of years, 0 or more, got ${v}.`,
          {
            path,
            field: `/age/${k}`,
          },
        ),
      )
  }
  const { min, max } = m.age ?? {}
  if (min !== undefined && max !== undefined && min > max)
    push(
      createDiagnostic('manifest/invalid-age', `"age/min" (${min}) is greater than "age/max" (${max}).`, {
        path,
        field: '/age',
      }),
    )
}

/**
 * True when `tag` is a well-formed BCP-47 language tag whose primary subtag is an ISO 639 code
 * (2 or 3 letters): `en`, `pt-BR`, `zh-Hant-TW`. The syntax check is the platform's Intl; the
 * 4-8 letter primary subtags BCP-47 reserves (never assigned) are refused, so `english` is caught.
 */
export function isLanguageTag(tag: string): boolean {
  if (!/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/.test(tag)) return false
  try {
    return Intl.getCanonicalLocales(tag).length === 1
  } catch {
    return false
  }
}

const language: Rule = (m, push, path) => {
  if (m.language !== undefined && !isLanguageTag(m.language))
    push(
      createDiagnostic(
        'manifest/invalid-language',
        `"language" must be a BCP-47 language tag such as "en" or "pt-BR", got "${m.language}".`,
        { path, field: '/language' },
      ),
    )
}

const allowedUrls: Rule = (m, push, path) => {
  const aliases = new Set<string>()
  m.allowed_urls?.forEach((u, i) => {
    let ok = false
    try {
      ok = new URL(u.url).protocol === 'https:'
    } catch {}
    if (!ok)
      push(
        createDiagnostic(
          'manifest/invalid-url',
          `"allowed_urls/${i}/url" must be an absolute https URL, got "${u.url}".`,
          {
            path,
            field: toPointer(['allowed_urls', i, 'url']),
          },
        ),
      )
    if (aliases.has(u.alias))
      push(
        createDiagnostic(
          'manifest/duplicate-alias',
          `"allowed_urls/${i}/alias" repeats the alias "${u.alias}".`,
          {
            path,
            field: toPointer(['allowed_urls', i, 'alias']),
          },
        ),
      )
    aliases.add(u.alias)
  })
}

/**
 * Each rule with the fields it reads (none listed: it always runs). A rule whose fields are all
 * absent is not called: it would find nothing, and an uncalled function is never compiled, which
 * matters on a cold first peek.
 */
const RULES: ReadonlyArray<{ rule: Rule; fields: readonly (keyof Manifest)[] }> = [
  { rule: versions, fields: ['story_lang', 'manifest'] },
  { rule: idFormat, fields: ['id'] },
  { rule: displayText, fields: ['title', 'author'] },
  { rule: paths, fields: [] },
  { rule: progressive, fields: ['preload', 'locked'] },
  { rule: packageType, fields: ['instruction', 'stories'] },
  { rule: readers, fields: ['readers'] },
  { rule: age, fields: ['age'] },
  { rule: language, fields: ['language'] },
  { rule: allowedUrls, fields: ['allowed_urls'] },
]

/** Runs every cross-field rule on a canonical manifest. */
export function runManifestRules(manifest: Manifest, path = 'manifest.json'): Diagnostic[] {
  const out: Diagnostic[] = []
  const push = (d: Diagnostic) => {
    out.push(d)
  }
  for (let r = 0; r < RULES.length; r++) {
    const { rule, fields } = RULES[r]!
    let applies = fields.length === 0
    for (let f = 0; f < fields.length && !applies; f++) applies = manifest[fields[f]!] !== undefined
    if (applies) rule(manifest, push, path)
  }
  return out
}
