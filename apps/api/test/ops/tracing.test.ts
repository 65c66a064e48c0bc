/**
 * OpenTelemetry tracing of the real server process (src/plugins/telemetry.ts): off without `OTEL_*`, and with
 * `OTEL_EXPORTER_OTLP_ENDPOINT` set, request spans exported over OTLP/HTTP to a receiver started here (a plain HTTP
 * server recording what the SDK's exporter posts to `/v1/traces`). The batch delay is set far beyond the test, so
 * the spans arrive only through the flush of the graceful shutdown (SIGTERM): what an operator's rolling restart
 * relies on.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  batchOptionsFromEnv,
  samplerFromEnv,
  TelemetryConfigError,
  tracingEnabled,
} from '../../src/plugins/telemetry.ts'
import { startTestIdp, type TestIdp } from '../helpers/auth.ts'
import { type ServerProcess, startServerProcess, stopAllServerProcesses } from '../helpers/server-process.ts'

interface OtlpSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  attributes: Array<{ key: string; value: Record<string, unknown> }>
  status?: { code?: number }
}
interface OtlpExport {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: Record<string, unknown> }> }
    scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }>
  }>
}

const received: Array<{ path: string; contentType: string; body: OtlpExport }> = []
let receiver: Server
let idp: TestIdp
let api: ServerProcess

const attr = (list: OtlpSpan['attributes'], key: string) => {
  const v = list.find((a) => a.key === key)?.value
  return v ? (v.stringValue ?? v.intValue ?? v.boolValue) : undefined
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        contentType: String(req.headers['content-type']),
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport,
      })
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  idp = await startTestIdp()
  api = await startServerProcess({
    name: 'traced',
    env: {
      OIDC_ISSUER: idp.issuer,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
      OTEL_SERVICE_NAME: 'spkg-api-test',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=ops-test',
      OTEL_BSP_SCHEDULE_DELAY: '600000',
    },
  })
}, 120_000)

afterAll(async () => {
  await stopAllServerProcesses()
  await idp?.close()
  await new Promise<void>((resolve) => receiver?.close(() => resolve()))
})

describe('tracing settings (OTEL_*)', () => {
  it('is off by default and follows the standard variables', () => {
    expect(tracingEnabled({})).toBe(false)
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true)
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })).toBe(true)
    expect(tracingEnabled({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true)
    expect(
      tracingEnabled({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }),
    ).toBe(false)
    expect(tracingEnabled({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' })).toBe(false)
    expect(() => tracingEnabled({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(TelemetryConfigError)
  })

  it('reads the sampler and the batch settings, refusing bad values by name', () => {
    expect(samplerFromEnv({}).toString()).toMatch(/ParentBased/)
    expect(
      samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }).toString(),
    ).toMatch(/0\.25/)
    expect(() =>
      samplerFromEnv({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' }),
    ).toThrow(/OTEL_TRACES_SAMPLER_ARG/)
    expect(() => samplerFromEnv({ OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(
      /OTEL_TRACES_SAMPLER: sometimes/,
    )
    expect(batchOptionsFromEnv({ OTEL_BSP_SCHEDULE_DELAY: '200' })).toEqual({ scheduledDelayMillis: 200 })
    expect(() => batchOptionsFromEnv({ OTEL_BSP_MAX_QUEUE_SIZE: 'lots' })).toThrow(/OTEL_BSP_MAX_QUEUE_SIZE/)
  })
})

describe('a server process with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('exports one server span per request, under the caller’s traceparent, flushed by the SIGTERM drain', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
    const parentId = '00f067aa0ba902b7'
    const health = await fetch(`${api.base}/api/health`, {
      headers: { traceparent: `00-${traceId}-${parentId}-01`, 'x-request-id': 'trace-test-0001' },
    })
    expect(health.status).toBe(200)
    // A route with a parameter, refused (no token): the span is named by the pattern, never the slug.
    expect((await fetch(`${api.base}/api/stories/secret-slug-name`)).status).toBe(401)
    expect(received).toHaveLength(0) // batched: nothing sent yet
    const exit = await api.stop()
    expect(exit).toEqual({ code: 0, signal: null })

    expect(received.length).toBeGreaterThan(0)
    for (const r of received) {
      expect(r.path).toBe('/v1/traces')
      expect(r.contentType).toMatch(/^application\/json/)
    }
    const resourceSpans = received.flatMap((r) => r.body.resourceSpans)
    const resource = resourceSpans[0]?.resource.attributes ?? []
    expect(attr(resource, 'service.name')).toBe('spkg-api-test')
    expect(attr(resource, 'deployment.environment.name')).toBe('ops-test')
    const spans = resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans))

    const h = spans.find((s) => s.name === 'GET /api/health')
    expect(h).toBeDefined()
    expect(h?.traceId).toBe(traceId)
    expect(h?.parentSpanId).toBe(parentId)
    expect(h?.kind).toBe(2) // SERVER
    expect(attr(h?.attributes ?? [], 'http.route')).toBe('/api/health')
    expect(Number(attr(h?.attributes ?? [], 'http.response.status_code'))).toBe(200)
    expect(attr(h?.attributes ?? [], 'spkg.request_id')).toBe('trace-test-0001')

    const s = spans.find((x) => x.name === 'GET /api/stories/:slug')
    expect(s).toBeDefined()
    expect(s?.parentSpanId ?? '').toBe('') // no traceparent: a root span of a new trace
    expect(Number(attr(s?.attributes ?? [], 'http.response.status_code'))).toBe(401)
    expect(spans.map((x) => x.name).join(' ')).not.toContain('secret-slug-name')
  }, 30_000)
})
