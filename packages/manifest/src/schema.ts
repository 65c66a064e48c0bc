/**
 * The canonical manifest: one zod schema, the type every consumer sees, and the source of
 * `manifest.schema.json`. Looser input is normalised into this shape by `parseManifest`.
 */
import { z } from 'zod'
import { MANIFEST_FIELD_NAMES, type ManifestField } from './fields'

const str = (description: string) => z.string().meta({ description })
const strList = (description: string) => z.array(z.string()).meta({ description })

/** One author: free-text `name`; `id` is the platform slug of a registered account. */
export const AuthorSchema = z
  .looseObject({
    name: z.string().min(1).meta({ description: 'free-text author name' }),
    id: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "the author's platform slug (registered accounts only)" }),
  })
  .meta({ id: 'Author' })

/** One story part: archive path under `story/` and display name. */
export const PartSchema = z
  .looseObject({
    file: z.string().meta({ description: 'archive-relative path under story/' }),
    name: z.string().meta({ description: 'display name' }),
  })
  .meta({ id: 'Part' })

/** One media asset under `assets/`; a missing `name` means no display name. */
export const AssetSchema = z
  .looseObject({
    file: z.string().meta({ description: 'archive-relative path under assets/' }),
    name: z.string().optional().meta({ description: 'display name' }),
  })
  .meta({ id: 'Asset' })

/** A whitelisted external endpoint: the only egress a story has. */
export const AllowedUrlSchema = z
  .looseObject({
    alias: z.string().min(1),
    url: z.string().meta({ description: 'absolute https URL' }),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'AllowedUrl' })

/** One tab-bar section: `enabled`, an optional label/icon override and free-form attributes. */
export const TabBarSectionSchema = z
  .looseObject({
    enabled: z.boolean().optional(),
    label: z.string().optional(),
    icon: z.string().optional(),
  })
  .meta({ id: 'TabBarSection' })

/** `manifest.reader.tabBar`: the opt-in bottom bar. */
export const TabBarSchema = z
  .looseObject({
    enabled: z.boolean().optional().meta({ description: 'master switch; default false' }),
    priorityHand: z.enum(['reader', 'left', 'right']).optional().meta({
      description: "which edge counts as closest; default 'reader' (the reader's handedness setting)",
    }),
    help: TabBarSectionSchema.optional(),
    map: TabBarSectionSchema.optional(),
    bag: TabBarSectionSchema.optional(),
    character: TabBarSectionSchema.optional(),
    actions: TabBarSectionSchema.optional(),
  })
  .meta({ id: 'TabBar' })

/** `manifest.reader`: reader presentation settings. */
export const ReaderSettingsSchema = z.looseObject({ tabBar: TabBarSchema.optional() }).meta({
  id: 'ReaderSettings',
})

/** `manifest.build`: minification metadata. */
export const BuildSchema = z
  .looseObject({
    minified: z.boolean().optional(),
    names_map: z
      .string()
      .optional()
      .meta({ description: 'archive path of the name map, e.g. META-PKG/names.json' }),
  })
  .meta({ id: 'Build' })

/** The zod schema of each manifest field, in the SPEC's order. */
export const MANIFEST_FIELDS = {
  story_lang: str("story-language version the story is authored in ('1.0' or '1.1'; absent means '1.0')"),
  manifest: str("manifest schema version ('1.0' or '1.1'; absent means '1.0')"),
  type: z.enum(['story', 'instruction']).meta({ description: "'story' (default) or 'instruction'" }),
  id: z.string().min(1).meta({ description: 'stable story identifier (UUID); always present' }),
  title: str('display title'),
  intro: str('short intro text for the envelope/cover'),
  cover: str('archive-relative path to the cover image, conventionally assets/cover.webp'),
  author: z.array(AuthorSchema).meta({ description: 'authors, always in object form' }),
  version: str('author-defined version of this package'),
  language: str('BCP-47 language tag'),
  direction: z.enum(['ltr', 'rtl']),
  date: str('publication date'),
  description: str('short synopsis'),
  genre: str('classification'),
  tags: strList('classification'),
  license: str('distribution licence, e.g. an SPDX id'),
  parts: z
    .array(PartSchema)
    .meta({ description: 'ordered; the first is the entry; array order is play order' }),
  assets: z.array(AssetSchema).meta({ description: 'media under assets/' }),
  instruction: str('for a story: id or slug of its linked instruction package'),
  stories: strList('for an instruction: the story packages it covers'),
  readers: z
    .array(z.number())
    .meta({ description: 'supported reader counts; a value > 1 marks a cooperative story' }),
  age: z
    .looseObject({ min: z.number().optional(), max: z.number().optional() })
    .meta({ id: 'AgeRange', description: 'recommended reader age range' }),
  content_warnings: strList('sensitive-content notices'),
  series: str('series grouping'),
  season: z.union([z.number(), z.string()]).meta({ description: 'season grouping' }),
  entry: z.union([z.number(), z.string()]).meta({ description: 'ordering within series/season' }),
  series_name: str('display name of the series'),
  season_name: str('display name of the season'),
  duration: z.number().nonnegative().meta({ description: 'estimated reading time in minutes' }),
  sensors: strList("device capabilities requested (e.g. 'geolocation')"),
  accessibility: strList('accessibility hints honoured'),
  allowed_urls: z.array(AllowedUrlSchema).meta({ description: 'whitelisted external endpoints' }),
  extensions: strList('.xty load order; a listed entry missing from the archive fails the load'),
  requires: strList("host-extension namespaces required (e.g. 'host')"),
  loading: z.enum(['progressive']).meta({ description: "'progressive' to download parts on demand" }),
  preload: strList('part paths to fetch immediately (progressive loading only)'),
  locked: strList('part paths withheld until a lock condition is met (progressive loading only)'),
  offline: z.boolean().meta({ description: 'package is fully playable offline' }),
  preview: z.boolean().meta({ description: 'marks a preview/sample build' }),
  integrity: z
    .record(z.string(), z.string().regex(/^[0-9a-f]{64}$/))
    .meta({ description: 'archive path -> lowercase hex SHA-256 of the uncompressed bytes' }),
  solo_mode: z
    .enum(['all_roles', 'single_role'])
    .meta({ description: "'all_roles' (default) or 'single_role'" }),
  storage: z.enum(['none', 'local', 'cloud']).meta({ description: "'none', 'local' (default) or 'cloud'" }),
  reader: ReaderSettingsSchema,
  build: BuildSchema,
  signed: z.boolean().meta({ description: 'whether the package is signed' }),
  signature: str("signer key fingerprint, 'ed25519:<base64 of SHA-256 of the raw public key>'"),
} as const satisfies Record<ManifestField, z.ZodType>

type Fields = typeof MANIFEST_FIELDS

type OptionalFields = { [K in ManifestField]: K extends 'id' ? Fields[K] : z.ZodOptional<Fields[K]> }

/** The canonical manifest. Unknown fields are allowed (preserved and ignored). */
export const ManifestSchema = z
  .looseObject(
    Object.fromEntries(
      MANIFEST_FIELD_NAMES.map((k) => [k, k === 'id' ? MANIFEST_FIELDS[k] : MANIFEST_FIELDS[k].optional()]),
    ) as OptionalFields,
  )
  .meta({
    id: 'Manifest',
    title: 'spkg manifest.json',
    description: 'The canonical manifest of a .spkg story package (manifest schema 1.0).',
  })

/** The canonical manifest type. */
export type Manifest = z.infer<typeof ManifestSchema>
export type Author = z.infer<typeof AuthorSchema>
export type Part = z.infer<typeof PartSchema>
export type Asset = z.infer<typeof AssetSchema>
export type AllowedUrl = z.infer<typeof AllowedUrlSchema>
export type TabBar = z.infer<typeof TabBarSchema>
export type TabBarSection = z.infer<typeof TabBarSectionSchema>
