/**
 * POST /me/reports (no /api prefix): at most 10 reports per user in 24 hours, enforced by the
 * database trigger so concurrent requests through several instances cannot exceed it.
 */
import { ReportBodySchema, ReportSchema } from '@spkg/api-contract'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Db } from '../../db/connection'
import { insertReport, REPORT_QUOTA_SQLSTATE } from '../../db/reports'
import { ApiError, errorResponses, sqlState } from '../../errors'
import { authenticated, userOf } from '../../plugins/route-auth'
import { throttle } from '../../plugins/throttle'

/** The report routes. */
export const reportRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.post(
    '/me/reports',
    {
      onRequest: authenticated(app),
      ...throttle('reports'),
      schema: {
        tags: ['reports'],
        summary: 'File a report',
        description:
          'At most 10 reports per user in any 24 hours (database-enforced): the 11th is 409 REPORT_RATE_LIMITED. Throttled at 5 requests per 60 s.',
        security: [{ bearerAuth: [] }],
        body: ReportBodySchema,
        response: { 201: ReportSchema, ...errorResponses(400, 401, 409, 429) },
      },
    },
    async (request, reply) => {
      const { reason, storySlug, details } = request.body
      try {
        const report = await insertReport(db, {
          userSub: userOf(request).sub,
          reason,
          storySlug: storySlug ?? null,
          details,
        })
        return reply.code(201).send(report)
      } catch (err) {
        if (sqlState(err) === REPORT_QUOTA_SQLSTATE) {
          throw new ApiError(
            409,
            'REPORT_RATE_LIMITED',
            'Report rate limit exceeded: at most 10 reports in 24 hours',
          )
        }
        throw err
      }
    },
  )
}
