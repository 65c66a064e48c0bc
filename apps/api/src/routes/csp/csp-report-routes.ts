/**
 * POST /api/csp-report: public intake of CSP violation reports in both browser formats:
 * `application/csp-report` (`report-uri`, `{"csp-report": {...kebab-case}}`) and
 * `application/reports+json` (`report-to`, an array of `{type, body: {...camelCase}}`). Bodies
 * are validated and bounded (64 KiB, 50 reports, each string cut to its column), and the table
 * keeps only the newest rows.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Db } from '../../db/connection'
import { type CspViolation, cspSourceKey, storeCspViolations } from '../../db/csp-reports'
import { errorResponses } from '../../errors'
import { boundedJsonParser } from '../../input'
import { throttle } from '../../plugins/throttle'

/** Largest accepted report body. */
export const CSP_REPORT_BODY_LIMIT = 64 * 1024

const str = (max: number) => z.string().max(max).optional()
const line = z.number().int().min(0).max(10_000_000).optional()

const legacyExample = {
  'csp-report': {
    'document-uri': 'https://app.example.org/read',
    'blocked-uri': 'https://evil.example.com/x.js',
    'effective-directive': 'script-src-elem',
    disposition: 'enforce',
  },
}

const LegacyReportSchema = z
  .object({
    'csp-report': z.looseObject({
      'document-uri': str(4096),
      referrer: str(4096),
      'blocked-uri': str(4096),
      'violated-directive': str(1000),
      'effective-directive': str(1000),
      'original-policy': str(8192),
      disposition: str(20),
      'source-file': str(4096),
      'line-number': line,
      'column-number': line,
      'script-sample': str(1000),
      'status-code': z.number().int().optional(),
    }),
  })
  .meta({
    id: 'CspReportLegacy',
    description: 'report-uri format (Content-Type: application/csp-report)',
    examples: [legacyExample],
  })

const ReportToSchema = z
  .array(
    z.looseObject({
      type: z.string().max(100),
      age: z.number().optional(),
      url: str(4096),
      user_agent: str(1000),
      body: z
        .looseObject({
          documentURL: str(4096),
          blockedURL: str(4096),
          effectiveDirective: str(1000),
          disposition: str(20),
          sourceFile: str(4096),
          lineNumber: line,
          columnNumber: line,
          sample: str(1000),
          statusCode: z.number().int().optional(),
        })
        .optional(),
    }),
  )
  .min(1)
  .max(50)
  .meta({
    id: 'CspReportTo',
    description: 'Reporting API format (Content-Type: application/reports+json), up to 50 reports',
  })

const CspBodySchema = z.union([LegacyReportSchema, ReportToSchema]).meta({
  examples: [legacyExample],
})

function normalise(body: z.infer<typeof CspBodySchema>): CspViolation[] {
  if (!Array.isArray(body)) {
    const r = body['csp-report']
    return [
      {
        format: 'report-uri',
        documentUri: r['document-uri'],
        blockedUri: r['blocked-uri'],
        effectiveDirective: r['effective-directive'] ?? r['violated-directive'],
        disposition: r.disposition,
        sourceFile: r['source-file'],
        lineNumber: r['line-number'],
        sample: r['script-sample'],
      },
    ]
  }
  return body
    .filter((r) => r.type === 'csp-violation' && r.body)
    .map((r) => ({
      format: 'report-to' as const,
      documentUri: r.body?.documentURL ?? r.url,
      blockedUri: r.body?.blockedURL,
      effectiveDirective: r.body?.effectiveDirective,
      disposition: r.body?.disposition,
      sourceFile: r.body?.sourceFile,
      lineNumber: r.body?.lineNumber,
      sample: r.body?.sample,
    }))
}

/** The CSP report intake. */
export const cspReportRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.addContentTypeParser(
    ['application/csp-report', 'application/reports+json'],
    { parseAs: 'string', bodyLimit: CSP_REPORT_BODY_LIMIT },
    boundedJsonParser(app),
  )
  app.post(
    '/api/csp-report',
    {
      ...throttle('csp-report'),
      bodyLimit: CSP_REPORT_BODY_LIMIT,
      schema: {
        tags: ['security'],
        summary: 'CSP violation report intake',
        description:
          'Public. Accepts application/csp-report and application/reports+json (also application/json). Identical reports are counted in one row; one client address holds at most 100 distinct reports; the newest 10,000 are kept. Throttled at 10/s and 100/min.',
        body: CspBodySchema,
        response: { 204: z.null().meta({ description: 'accepted' }), ...errorResponses(400, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      await storeCspViolations(db, normalise(request.body), { source: cspSourceKey(request.ip) })
      return reply.code(204).send(null)
    },
  )
}
