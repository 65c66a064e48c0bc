/**
 * docs/manifest-limits.md, rendered from {@link MANIFEST_LIMITS} (`pnpm --filter @spkg/manifest
 * generate`; `generated.test.ts` fails when the page drifts from the numbers the parser uses).
 */
import { MANIFEST_LIMITS, type ManifestBound } from './manifest-limits'

const n = (x: number) => x.toLocaleString('en-US')

/** The facts of one bound, in words (none for a number or a boolean). */
function facts(b: ManifestBound): string[] {
  const out: string[] = []
  if (b.maxItems !== undefined) {
    out.push(`at most ${n(b.maxItems)} items`)
    const item = b.item
    if (item?.maxLength !== undefined && !item.properties)
      out.push(`each at most ${n(item.maxLength)} characters`)
  }
  // A list's own length and keys bound its looser single-member form, which is bounded as an item.
  if (b.maxLength !== undefined && b.maxItems === undefined) out.push(`at most ${n(b.maxLength)} characters`)
  if (b.maxOtherKeys !== undefined && !b.maxItems)
    out.push(b.properties ? `at most ${n(b.maxOtherKeys)} other keys` : `at most ${n(b.maxOtherKeys)} keys`)
  if (b.other?.maxLength !== undefined) out.push(`each value at most ${n(b.other.maxLength)} characters`)
  return out
}

function rows(name: string, b: ManifestBound, out: string[]): void {
  const f = facts(b)
  out.push(`| \`${name}\` | ${f.length > 0 ? f.join('; ') : 'a number or a boolean: no bound of its own'} |`)
  const nested = (prefix: string, props: Readonly<Record<string, ManifestBound>>) => {
    for (const [k, v] of Object.entries(props))
      if (facts(v).length > 0 || v.properties) rows(`${prefix}.${k}`, v, out)
  }
  if (b.properties && b.maxItems === undefined) nested(name, b.properties)
  const item = b.item
  if (item?.properties) {
    const bare = item.maxLength !== undefined ? `; a bare string at most ${n(item.maxLength)} characters` : ''
    out.push(
      `| \`${name}[]\` | an object: at most ${n(item.maxOtherKeys ?? 0)} keys besides those below${bare} |`,
    )
    nested(`${name}[]`, item.properties)
  }
}

/** The Markdown page of the manifest's bounds. */
export function renderManifestLimitsMarkdown(): string {
  const L = MANIFEST_LIMITS
  const out: string[] = [
    '# Manifest limits',
    '',
    'Generated from `MANIFEST_LIMITS` in `@spkg/manifest` (`pnpm --filter @spkg/manifest generate`); do not edit by hand.',
    '',
    'Who enforces what:',
    '',
    '- **Size and nesting** (1 MiB, 64 levels): everywhere. Every reader refuses a manifest over them (`manifest/too-large`,',
    '  `manifest/too-deep`) before anything else reads it, the player and any `@spkg/reader` embedder included: they',
    '  are about safety and availability, and cost almost nothing.',
    "- **Everything else on this page** (the key and value counts, every field's bound, the `version` pattern) is",
    '  publishing policy: `spkg validate` (and `pack`, `play`, the `manifest` command), the API on upload (through',
    '  `validatePackageBytes`) and the language server always check it, with the same diagnostics',
    '  ([diagnostic codes](diagnostic-codes.md)). A reader checks it only when asked (`checkManifestBounds` of',
    '  `@spkg/manifest` as the `bounds` option of `parseManifest`, or `manifestBounds` of `openPackage`), so a browser',
    '  player does not carry it, as an EPUB reader is more lenient than epubcheck.',
    '',
    'The bounds are generous for real stories (a package holds at most 500 files, so lists of files stop there) and',
    'keep a hostile manifest as cheap to check, store and send as a large real one. Lengths count UTF-16 code units,',
    'as JavaScript does: most characters one, an emoji two.',
    '',
    '## The whole manifest',
    '',
    'Over any of these, the manifest is not read (a `fatal` finding refuses the package):',
    '',
    '| Bound | Value | Code |',
    '|---|---|---|',
    `| size of \`manifest.json\` (UTF-8), checked before it is parsed | ${n(L.maxBytes)} bytes (1 MiB) | \`manifest/too-large\` |`,
    `| nesting (the manifest object is level 1, \`reader.tabBar.help\` level 4), checked without recursion right after \`JSON.parse\`, which is iterative in V8, SpiderMonkey and JavaScriptCore | ${L.maxDepth} levels | \`manifest/too-deep\` |`,
    `| object keys in all | ${n(L.maxKeys)} | \`manifest/too-large\` |`,
    `| JSON values in all (every object, array, string, number, boolean and null) | ${n(L.maxValues)} | \`manifest/too-large\` |`,
    '',
    '## Each value',
    '',
    'A value over its bound is an `error` with the JSON pointer of the value (`field`) and is left out of the',
    'manifest: a whole field, or only the member of a list or of `integrity` that is over (the list keeps the others),',
    'as a value of the wrong type is. A string over its length is `manifest/too-long`, a list or an object with too',
    'many members `manifest/too-many`.',
    '',
    '| Where | Bound |',
    '|---|---|',
    `| any object key | at most ${n(L.maxKeyLength)} characters (the finding names the object holding it) |`,
    `| fields the schema does not know | at most ${n(L.maxUnknownFields)} (more: one \`manifest/too-many\` without a \`field\`, and every unknown field is left out) |`,
    `| anything no row below bounds (unknown fields, free-form attributes, \`allowed_urls[].params\` values) | strings ${n(L.other.maxLength)} characters, lists ${n(L.other.maxItems)} items, objects ${n(L.other.maxOtherKeys)} keys |`,
  ]
  for (const [field, b] of Object.entries(L.fields)) rows(field, b, out)
  out.push(
    '',
    'A field written in a looser form is bounded as what it is: a single string or object for a list (`"tags": "x"`,',
    '`"author": "Ann"`) as one of its items, a bare-string part or asset as a path.',
    '',
    '`version` also has a pattern (`manifest/invalid-version`): letters, digits, `.`, `_`, `+` and `-`, starting and',
    'ending with a letter or digit, without `..`: `1.2.3`, `1.0-beta.2`, `2024-05-01`, `v3`, `1.0.0+build.5`. No',
    'spaces, slashes, control characters or paths: the platform keeps versions apart by it.',
    '',
    '`session.json` values may nest 63 levels (the file is level 1): a session value becomes a story variable, which a',
    'saved reading state holds one level deeper, within its own 64 (`MAX_READING_STATE_DEPTH`). A deeper value is',
    '`session/invalid-value` and left out.',
    '',
  )
  return out.join('\n')
}
