/**
 * POST /me/reports: a user's report about a story or anything else.
 */
import { z } from 'zod'
import { SlugSchema, TimestampSchema } from './common'

/** Reasons a report may give. */
export const REPORT_REASONS = ['spam', 'abuse', 'copyright', 'inappropriate', 'broken', 'other'] as const

/** Body of POST /me/reports. */
export const ReportBodySchema = z
  .strictObject({
    reason: z.enum(REPORT_REASONS),
    storySlug: SlugSchema.optional().meta({ description: 'the story reported, if any' }),
    details: z.string().max(2000).default(''),
  })
  .meta({
    id: 'ReportCreate',
    examples: [{ reason: 'copyright', storySlug: 'the-lighthouse', details: 'Copied from my book.' }],
  })

/** A filed report. */
export const ReportSchema = z
  .object({ id: z.uuid(), reason: z.string(), storySlug: z.string().nullable(), createdAt: TimestampSchema })
  .meta({
    id: 'Report',
    examples: [
      {
        id: '0b7c1c9e-3f7a-4a47-9d43-2f0d2a9c1e11',
        reason: 'copyright',
        storySlug: 'the-lighthouse',
        createdAt: '2026-11-23T10:00:00.000Z',
      },
    ],
  })
