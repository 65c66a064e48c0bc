/**
 * @spkg/manifest: the single source of truth for the shapes that cross package boundaries.
 * This entry never loads zod (its checks are compiled from the zod schemas); the schemas
 * themselves are at `@spkg/manifest/schemas` (`schemas.ts`).
 */

export type { ManifestBoundsResult } from './bounds'
export { checkManifestBounds } from './bounds'
export type { CodeInfo, DiagnosticCode } from './codes'
export { CODES, isDiagnosticCode } from './codes'
export type { Diagnostic, Severity } from './diagnostic'
export { countBySeverity, hasErrors, hasFatal, SEVERITIES, toPointer } from './diagnostic'
export type { DiagnosticLocation } from './diagnostic-helpers'
export { createDiagnostic } from './diagnostic-helpers'
export type { ManifestField } from './fields'
export {
  KNOWN_MANIFEST_VERSIONS,
  KNOWN_STORY_LANG_VERSIONS,
  MANIFEST_FIELD_NAMES,
  TAB_BAR_SECTIONS,
} from './fields'
export type { JsonValue } from './json'
export { isPlainObject, parseJsonText } from './json'
export type { Limits } from './limits'
export { LIMITS } from './limits'
export { MANIFEST_MAX_BYTES, MANIFEST_MAX_DEPTH } from './manifest-guards'
export type { ManifestBound } from './manifest-limits'
export { MANIFEST_LIMITS } from './manifest-limits'
export type { NamesMap, NamesMapResult } from './names-map'
export { parseNamesMapText } from './names-map'
export { derivePartName, normalizeDigest } from './normalize'
export type { ManifestResult, ParseManifestOptions } from './parse-manifest'
export { parseManifest, parseManifestText } from './parse-manifest'
export {
  COMMON_SAFE_PATH,
  CONTROL_CHARACTER,
  checkArchivePath,
  isSafeArchivePath,
} from './paths'
export type { ParseReadingStateOptions, ParseReadingStateResult, ReadingState } from './reading-state'
export {
  MAX_READING_STATE_DEPTH,
  parseReadingState,
  parseReadingStateText,
  READING_STATE_FORMAT,
} from './reading-state'
export { isLanguageTag, runManifestRules, VERSION_PATTERN } from './rules'
export type { AllowedUrl, Asset, Author, Manifest, Part, TabBar, TabBarSection } from './schema'
export { serializeManifest } from './serialize-manifest'
export type { Session, SessionResult } from './session'
export { parseSession, parseSessionText } from './session'
export { isSpkgError, SpkgError } from './spkg-error'
export type { StorySource, StorySourceLike } from './story-source'
export { isVariableName, RESERVED_WORDS } from './variable-name'
