/**
 * The bounds of `manifest.json`: its size, its nesting, its key and value counts, and
 * a maximum for every string, list and map of every field. Only constants and pure calls
 * (annotated, so a bundle that never reads them drops the file): `bounds.ts` checks them (when a
 * parse is asked to), `manifest-limits-doc.ts` renders docs/manifest-limits.md from them.
 *
 * The numbers are generous for real stories (a package holds at most 500 entries, so lists of
 * files are bounded by that) and small enough that a hostile manifest costs no more to check,
 * store and send than a large real one. Lengths count UTF-16 code units (JavaScript's
 * `String.length`: most characters one, an emoji two).
 */
import type { ManifestField } from './fields'
import { MANIFEST_MAX_BYTES, MANIFEST_MAX_DEPTH } from './manifest-guards'

/**
 * The bound of one value, by the JSON type it turns out to have (a field written in a looser
 * form, a bare string for a part, is bounded as what it is). What a bound does not say, the
 * `other` bound of {@link MANIFEST_LIMITS} says.
 */
export interface ManifestBound {
  /** Most characters of the value when it is a string. */
  readonly maxLength?: number
  /** Most items when it is an array. */
  readonly maxItems?: number
  /** The bound of each array item. */
  readonly item?: ManifestBound
  /** When it is an object: the bound of each named key's value. */
  readonly properties?: Readonly<Record<string, ManifestBound>>
  /** Most keys besides those of `properties` when it is an object. */
  readonly maxOtherKeys?: number
  /** The bound of the values of those other keys. */
  readonly other?: ManifestBound
}

/** An archive path (`cover`, `parts[].file`, `integrity` keys...). */
const PATH = 1_024
/** A display name or short label (`title`, a part's name, a series name...). */
const NAME = 200
/** A short code or keyword (`tags`, `sensors`, `requires`...). */
const WORD = 100
/** A keyword value (`type`, `direction`, `loading`...): the longest allowed value is 11 characters. */
const KEYWORD = 20
/** A free-form object (`reader`, `build`, a part's extra keys...): keys besides the known ones. */
const KEYS = 100

const path = { maxLength: PATH } as const satisfies ManifestBound
const name = { maxLength: NAME } as const satisfies ManifestBound
const word = { maxLength: WORD } as const satisfies ManifestBound
const keyword = { maxLength: KEYWORD } as const satisfies ManifestBound
/** A list of strings; a single string (the looser form) is bounded like one item. */
const list = (maxItems: number, item: ManifestBound): ManifestBound => ({ ...item, maxItems, item })
/** An object with known keys and at most {@link KEYS} others. */
const object = (properties: Record<string, ManifestBound>): ManifestBound => ({
  properties,
  maxOtherKeys: KEYS,
})

/** A part or an asset: a bare path (the looser form) or `{file, name}`. */
const fileEntry: ManifestBound = { maxLength: PATH, properties: { file: path, name }, maxOtherKeys: KEYS }
const author: ManifestBound = { maxLength: NAME, properties: { name, id: word }, maxOtherKeys: KEYS }
const section = /* @__PURE__ */ object({ enabled: {}, label: name, icon: path })

/** The bounds of `manifest.json`. */
export const MANIFEST_LIMITS = /* @__PURE__ */ Object.freeze({
  /** Bytes of `manifest.json` (UTF-8): 1 MiB, 10 times a 500-file manifest with every digest. Checked before parsing. */
  maxBytes: MANIFEST_MAX_BYTES,
  /** Deepest nesting: the manifest object is level 1, `reader.tabBar.help` level 4. Checked without recursion (JSON.parse itself is iterative). */
  maxDepth: MANIFEST_MAX_DEPTH,
  /** Object keys in the whole manifest (a 500-file manifest with every digest has about 2,500). */
  maxKeys: 10_000,
  /** JSON values in the whole manifest: every object, array, string, number, boolean and null counts one. */
  maxValues: 50_000,
  /** Characters of any object key (an `integrity` key is an archive path). */
  maxKeyLength: PATH,
  /** Fields the schema does not know (kept and ignored, `manifest/unknown-field`). */
  maxUnknownFields: 100,
  /** What a field's bound leaves open: unknown fields, free-form attributes, `params` values. */
  other: { maxLength: 10_000, maxItems: 1_000, maxOtherKeys: KEYS } satisfies ManifestBound,
  /** The bound of each field of the SPEC's manifest table. */
  fields: {
    story_lang: keyword,
    manifest: keyword,
    type: keyword,
    id: word,
    title: name,
    intro: { maxLength: 2_000 },
    cover: path,
    author: /* @__PURE__ */ list(50, author),
    version: word,
    language: word,
    direction: keyword,
    date: { maxLength: 64 },
    description: { maxLength: 10_000 },
    genre: word,
    tags: /* @__PURE__ */ list(100, word),
    license: name,
    parts: /* @__PURE__ */ list(500, fileEntry),
    assets: /* @__PURE__ */ list(500, fileEntry),
    instruction: name,
    stories: /* @__PURE__ */ list(100, name),
    readers: { maxItems: 100 },
    age: /* @__PURE__ */ object({ min: {}, max: {} }),
    content_warnings: /* @__PURE__ */ list(100, name),
    series: name,
    season: name,
    entry: name,
    series_name: name,
    season_name: name,
    duration: {},
    sensors: /* @__PURE__ */ list(100, word),
    accessibility: /* @__PURE__ */ list(100, word),
    allowed_urls: /* @__PURE__ */ list(
      100,
      /* @__PURE__ */ object({ alias: word, url: { maxLength: 2_048 }, params: { maxOtherKeys: KEYS } }),
    ),
    extensions: /* @__PURE__ */ list(500, path),
    requires: /* @__PURE__ */ list(100, word),
    loading: keyword,
    preload: /* @__PURE__ */ list(500, path),
    locked: /* @__PURE__ */ list(500, path),
    offline: {},
    preview: {},
    integrity: { maxOtherKeys: 500, other: word },
    solo_mode: keyword,
    storage: keyword,
    reader: /* @__PURE__ */ object({
      tabBar: /* @__PURE__ */ object({
        enabled: {},
        priorityHand: keyword,
        help: section,
        map: section,
        bag: section,
        character: section,
        actions: section,
      }),
    }),
    build: /* @__PURE__ */ object({ minified: {}, names_map: path }),
    signed: {},
    signature: name,
  } satisfies Record<ManifestField, ManifestBound>,
})
