/**
 * OpenTelemetry tracing, off by default. Enabled by the standard variables: `OTEL_TRACES_EXPORTER=otlp`, or an
 * OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) with `OTEL_TRACES_EXPORTER`
 * unset; `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` turn it off whatever else is set. Spans go over
 * OTLP/HTTP (JSON) through the SDK's exporter, which reads its own variables (`OTEL_EXPORTER_OTLP_*_HEADERS`,
 * `_TIMEOUT`, `_COMPRESSION`, certificates); the resource comes from `OTEL_SERVICE_NAME` and
 * `OTEL_RESOURCE_ATTRIBUTES` (service name `spkg-api` otherwise); the sampler from `OTEL_TRACES_SAMPLER` and
 * `OTEL_TRACES_SAMPLER_ARG` (default `parentbased_always_on`); batching from `OTEL_BSP_*`.
 *
 * One server span per request, named `<METHOD> <route pattern>` (never the raw URL: no slugs or ids in names),
 * with the W3C `traceparent` of the caller (a browser, a gateway) as its parent, and the attributes of the HTTP
 * semantic conventions (method, route, path without the query, status; `error.type` for 5xx). The request id
 * (`x-request-id`) is an attribute too, so a log line leads to its trace. Spans are exported in batches and
 * flushed when the app closes (the drain on SIGTERM).
 */
import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
} from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources'
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  type SpanExporter,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

type Env = Record<string, string | undefined>

/** A bad `OTEL_*` value: the start-up stops with this message, like a bad setting of config.ts. */
export class TelemetryConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TelemetryConfigError'
  }
}

/** Whether the `OTEL_*` variables turn tracing on (see the module comment). */
export function tracingEnabled(env: Env): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)
  if (exporters.length > 0) {
    const unknown = exporters.filter((e) => e !== 'otlp' && e !== 'none')
    if (unknown.length > 0)
      throw new TelemetryConfigError(
        `OTEL_TRACES_EXPORTER: ${unknown.join(', ')} is not supported (otlp or none)`,
      )
    return exporters.includes('otlp')
  }
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim())
}

/** The sampler `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG` name. */
export function samplerFromEnv(env: Env): Sampler {
  const name = (env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on').trim().toLowerCase()
  const ratio = () => {
    const raw = env.OTEL_TRACES_SAMPLER_ARG?.trim()
    if (raw === undefined || raw === '') return 1
    const n = Number(raw)
    if (!Number.isFinite(n) || n < 0 || n > 1)
      throw new TelemetryConfigError('OTEL_TRACES_SAMPLER_ARG: must be a number from 0 to 1')
    return n
  }
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler()
    case 'always_off':
      return new AlwaysOffSampler()
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio())
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() })
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() })
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio()) })
    default:
      throw new TelemetryConfigError(
        `OTEL_TRACES_SAMPLER: ${name} is not supported (always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio)`,
      )
  }
}

/** The batch processor's `OTEL_BSP_*` settings (delay, timeout, queue and batch sizes) that are set. */
export function batchOptionsFromEnv(env: Env): {
  scheduledDelayMillis?: number
  exportTimeoutMillis?: number
  maxQueueSize?: number
  maxExportBatchSize?: number
} {
  const read = (name: string) => {
    const raw = env[name]?.trim()
    if (raw === undefined || raw === '') return undefined
    const n = Number(raw)
    if (!Number.isInteger(n) || n <= 0) throw new TelemetryConfigError(`${name}: must be a positive integer`)
    return n
  }
  const options = {
    scheduledDelayMillis: read('OTEL_BSP_SCHEDULE_DELAY'),
    exportTimeoutMillis: read('OTEL_BSP_EXPORT_TIMEOUT'),
    maxQueueSize: read('OTEL_BSP_MAX_QUEUE_SIZE'),
    maxExportBatchSize: read('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
  }
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined))
}

/** A started tracer provider. */
export interface Tracing {
  provider: TracerProvider
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>
}

/**
 * The tracer provider the `OTEL_*` variables describe, or undefined when tracing is off. `exporter` replaces the
 * OTLP exporter (tests).
 *
 * @throws TelemetryConfigError for an unsupported exporter or sampler value
 */
export function startTracing(env: Env, exporter?: SpanExporter): Tracing | undefined {
  if (!exporter && !tracingEnabled(env)) return undefined
  const detected = detectResources({ detectors: [envDetector] })
  const resource = resourceFromAttributes({ 'service.name': 'spkg-api' }).merge(detected)
  const provider = new TracerProvider({
    resource,
    sampler: samplerFromEnv(env),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: exporter ?? new OTLPTraceExporter(),
        ...batchOptionsFromEnv(env),
      }),
    ],
  })
  return { provider, shutdown: () => provider.shutdown() }
}

const getter: TextMapGetter<FastifyRequest['headers']> = {
  keys: (headers) => Object.keys(headers),
  get: (headers, key) => headers[key.toLowerCase()],
}
const propagator = new W3CTraceContextPropagator()
const spans = new WeakMap<FastifyRequest, Span>()

/** Options of {@link tracingPlugin}. */
export interface TracingPluginOptions {
  /** The `OTEL_*` variables to read (the configuration's `telemetry`). */
  env: Env
  /** Replaces the OTLP exporter (tests). */
  exporter?: SpanExporter
}

/**
 * Registers the request spans when tracing is on (`OTEL_*`); does nothing otherwise. Not encapsulated: every route
 * of the app is traced. The provider is shut down (spans flushed) when the app closes.
 */
export const tracingPlugin = fp<TracingPluginOptions>(
  async (app: FastifyInstance, options) => {
    const tracing = startTracing(options.env, options.exporter)
    if (!tracing) return
    const tracer = tracing.provider.getTracer('@spkg/api')
    app.log.info('tracing: OpenTelemetry spans exported over OTLP/HTTP')
    app.addHook('onRequest', async (request) => {
      const parent: Context = propagator.extract(ROOT_CONTEXT, request.headers, getter)
      const attributes: Attributes = {
        'http.request.method': request.method,
        'url.path': request.url.split('?')[0] ?? '/',
        'url.scheme': request.protocol,
        'spkg.request_id': request.id,
      }
      const route = request.routeOptions.url
      if (route) attributes['http.route'] = route
      const span = tracer.startSpan(
        `${request.method} ${route ?? '(unmatched)'}`,
        { kind: SpanKind.SERVER, attributes },
        parent,
      )
      spans.set(request, span)
    })
    app.addHook('onResponse', async (request, reply) => {
      const span = spans.get(request)
      if (!span) return
      spans.delete(request)
      const status = reply.statusCode
      span.setAttribute('http.response.status_code', status)
      if (status >= 500) {
        span.setAttribute('error.type', String(status))
        span.setStatus({ code: SpanStatusCode.ERROR })
      }
      span.end()
    })
    // A request whose connection closed before an answer: its span ends too.
    app.addHook('onRequestAbort', async (request) => {
      const span = spans.get(request)
      if (!span) return
      spans.delete(request)
      span.setAttribute('error.type', 'aborted')
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'request aborted' })
      span.end()
    })
    app.addHook('onClose', async () => {
      try {
        await tracing.shutdown()
      } catch (err) {
        app.log.warn({ err }, 'tracing: spans could not be flushed at close')
      }
    })
  },
  { name: 'spkg-tracing' },
)
