/** The TypeScript types of the answers, inferred from the schemas. */
import type { z } from 'zod'
import type {
  CatalogStoryDetailSchema,
  CatalogStorySchema,
  SeriesDetailSchema,
  SeriesSchema,
} from './catalog'
import type { AuthEventSchema } from './events'
import type { ProfileSchema } from './profiles'
import type { ProgressSavedSchema } from './progress'
import type { ReportSchema } from './reports'
import type { StorySchema, StorySummarySchema } from './stories'

/** A story record with its content. */
export type Story = z.infer<typeof StorySchema>
/** A story record without content. */
export type StorySummary = z.infer<typeof StorySummarySchema>
/** A published story. */
export type CatalogStory = z.infer<typeof CatalogStorySchema>
/** A published story with content. */
export type CatalogStoryDetail = z.infer<typeof CatalogStoryDetailSchema>
/** A series. */
export type Series = z.infer<typeof SeriesSchema>
/** A series with its stories. */
export type SeriesDetail = z.infer<typeof SeriesDetailSchema>
/** A profile. */
export type Profile = z.infer<typeof ProfileSchema>
/** A filed report. */
export type Report = z.infer<typeof ReportSchema>
/** The answer of a reading-state save. */
export type ProgressSaved = z.infer<typeof ProgressSavedSchema>
/** An auth event. */
export type AuthEvent = z.infer<typeof AuthEventSchema>
