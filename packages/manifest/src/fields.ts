/**
 * The manifest's field names and versions, without zod: what the parser, the rules and the
 * serialiser need. The zod schema of each field is in `schema.ts` (`@spkg/manifest/schemas`); a
 * test checks that both name the same fields in the same order.
 */

const NAMES = [
  'story_lang',
  'manifest',
  'type',
  'id',
  'title',
  'intro',
  'cover',
  'author',
  'version',
  'language',
  'direction',
  'date',
  'description',
  'genre',
  'tags',
  'license',
  'parts',
  'assets',
  'instruction',
  'stories',
  'readers',
  'age',
  'content_warnings',
  'series',
  'season',
  'entry',
  'series_name',
  'season_name',
  'duration',
  'sensors',
  'accessibility',
  'allowed_urls',
  'extensions',
  'requires',
  'loading',
  'preload',
  'locked',
  'offline',
  'preview',
  'integrity',
  'solo_mode',
  'storage',
  'reader',
  'build',
  'signed',
  'signature',
] as const

/** Names of the manifest fields this library knows, in the SPEC's order. */
export type ManifestField = (typeof NAMES)[number]

/** Names of the manifest fields this library knows, in the SPEC's order. */
export const MANIFEST_FIELD_NAMES: ManifestField[] = [...NAMES]

/** Sections in thumb-distance order, closest first (the order is fixed). */
export const TAB_BAR_SECTIONS = ['actions', 'character', 'bag', 'map', 'help'] as const

/** Manifest and story-language versions this library knows. */
export const KNOWN_MANIFEST_VERSIONS: readonly string[] = ['1.0']
export const KNOWN_STORY_LANG_VERSIONS: readonly string[] = ['1.0', '1.1']
