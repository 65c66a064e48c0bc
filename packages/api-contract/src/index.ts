export {
  CatalogPlacedSchema,
  CatalogPlacementSchema,
  CatalogQuerySchema,
  CatalogStoryDetailSchema,
  CatalogStoryPageSchema,
  CatalogStorySchema,
  CreateSeriesSchema,
  GenreListSchema,
  SeriesDetailSchema,
  SeriesListSchema,
  SeriesSchema,
  UpdateSeriesSchema,
} from './catalog'
export {
  clampedInt,
  PageQuerySchema,
  pageOf,
  SlugParamsSchema,
  SlugSchema,
  TimestampSchema,
} from './common'
export {
  API_ERROR_CODES,
  API_ERROR_STATUS,
  type ApiErrorCode,
  type ErrorBody,
  ErrorBodySchema,
  errorCodesOf,
} from './errors'
export {
  AuthEventPageSchema,
  AuthEventQuerySchema,
  AuthEventSchema,
  SessionIdParamsSchema,
  SessionListSchema,
  SessionSchema,
} from './events'
export {
  AvatarSchema,
  avatarHref,
  ProfileBodySchema,
  ProfileSchema,
  ROLES,
  type Role,
  RoleParamsSchema,
} from './profiles'
export {
  ConditionalHeadersSchema,
  ProgressListSchema,
  ProgressSavedSchema,
  ProgressStateSchema,
  READING_STATE_MAX_BYTES,
  READING_STATE_MAX_MEMBERS,
  READING_STATE_MAX_VALUES,
  StoryIdParamsSchema,
} from './progress'
export {
  CanonicalManifestSchema,
  CatalogFilterQuerySchema,
  CatalogPublicationSchema,
  PackageDiagnosticSchema,
  PackageInvalidSchema,
  PackageRefSchema,
  PublishedCatalogPageSchema,
  PublishedCatalogStoryDetailSchema,
  PublishedCatalogStorySchema,
  PublishedVersionSchema,
  SigningKeysBodySchema,
  SigningKeysSchema,
  StoryVersionListSchema,
  StoryVersionParamsSchema,
  StoryVersionSchema,
} from './publishing'
export { REPORT_REASONS, ReportBodySchema, ReportSchema } from './reports'
export {
  CreateStorySchema,
  StoryPageSchema,
  StorySchema,
  StorySummarySchema,
  UpdateStorySchema,
} from './stories'
export type {
  AuthEvent,
  CatalogStory,
  CatalogStoryDetail,
  Profile,
  ProgressSaved,
  Report,
  Series,
  SeriesDetail,
  Story,
  StorySummary,
} from './types'
