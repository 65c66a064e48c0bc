/**
 * `@spkg/manifest/schemas`: the zod schemas, the single source of truth of the types, of the
 * JSON Schema files and of the compiled checks the main entry runs. Import them from here to
 * compose them (an API's request schemas, `z.toJSONSchema`); the main entry never loads zod.
 */
export { DiagnosticSchema, SeveritySchema } from './diagnostic-schema'
export { JsonValueSchema } from './json-value-schema'
export { NamesMapSchema } from './names-map-schema'
export { ReadingStateSchema, RngStateSchema } from './reading-state-schema'
export {
  AllowedUrlSchema,
  AssetSchema,
  AuthorSchema,
  BuildSchema,
  MANIFEST_FIELDS,
  ManifestSchema,
  PartSchema,
  ReaderSettingsSchema,
  TabBarSchema,
  TabBarSectionSchema,
} from './schema'
export { SessionSchema } from './session-schema'
