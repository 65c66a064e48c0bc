/**
 * API errors: one body shape everywhere, `{ statusCode, code?, message }`, for route errors,
 * validation failures, router-level errors (`frameworkErrors`) and 404s. 5xx answers say only
 * `Internal server error`; the stack goes to the server log.
 */
import { writeSync } from 'node:fs'
import type { Socket } from 'node:net'
import {
  API_ERROR_CODES,
  type ApiErrorCode,
  type ErrorBody,
  ErrorBodySchema,
  errorCodesOf,
  PackageInvalidSchema,
} from '@spkg/api-contract'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { StorageError } from './storage/types'

/** The error codes and error body, defined in @spkg/api-contract. */
export { API_ERROR_CODES, type ApiErrorCode, type ErrorBody, ErrorBodySchema }

/**
 * An error a route throws on purpose: status, stable code and a business message sent as is; `retryAfterS`, when
 * given, is sent as `Retry-After` (seconds).
 */
export class ApiError extends Error {
  readonly statusCode: number
  readonly code: ApiErrorCode
  readonly retryAfterS: number | undefined
  constructor(statusCode: number, code: ApiErrorCode, message: string, retryAfterS?: number) {
    super(message)
    this.name = 'ApiError'
    this.statusCode = statusCode
    this.code = code
    this.retryAfterS = retryAfterS
  }
}

/** `Retry-After` of a 503 STORAGE_UNAVAILABLE, seconds. */
export const STORAGE_RETRY_AFTER_S = 5

/** Builds an error body. */
export function errorBody(statusCode: number, message: string, code?: string): ErrorBody {
  return code ? { statusCode, code, message } : { statusCode, message }
}

/** The SQLSTATE of a driver error, also when drizzle wrapped it in `DrizzleQueryError`. */
export function sqlState(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code
  }
  return undefined
}

const FASTIFY_CODE_MAP: Record<string, ApiErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'VALIDATION_FAILED',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'VALIDATION_FAILED',
  FST_ERR_CTP_INVALID_JSON_BODY: 'VALIDATION_FAILED',
  FST_ERR_VALIDATION: 'VALIDATION_FAILED',
}

/** A byte count for messages: `64 KiB`, `1 MiB`, `700 KiB`. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`
  return `${n.toLocaleString('en')} bytes`
}

/**
 * SQLSTATEs of text or values PostgreSQL cannot take (22021 character not in repertoire, 22P02 invalid text
 * representation, 22P05 untranslatable character): the input rules (src/input.ts) refuse them first; this is the
 * last line, a 400 rather than a 500.
 */
const BAD_VALUE_SQLSTATES = new Set(['22021', '22P02', '22P05'])

const SAFE_FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Body cannot be empty when content-type is set to application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Request body size did not match Content-Length',
}

/**
 * The app's error handler: validation errors become 400 `VALIDATION_FAILED` with the zod messages,
 * deliberate errors keep their status and message, anything else with status >= 500 becomes
 * `Internal server error` with the error logged.
 */
export function handleError(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (hasZodFastifySchemaValidationErrors(err)) {
    const message = err.validation
      .map((v) => {
        const where = `${err.validationContext ?? 'request'}${v.instancePath.replaceAll('/', '.')}`
        return `${where}: ${v.message}`
      })
      .join('; ')
    return reply.code(400).send(errorBody(400, message.slice(0, 2000), 'VALIDATION_FAILED'))
  }
  if (err instanceof ApiError) {
    if (err.retryAfterS !== undefined) reply.header('retry-after', String(err.retryAfterS))
    return reply.code(err.statusCode).send(errorBody(err.statusCode, err.message, err.code))
  }
  if (err instanceof StorageError && err.code === 'STORAGE_UNAVAILABLE') {
    // The file storage (S3 down, refusing, silent; a filesystem error) is a passing outage, not a server fault.
    request.log.warn({ err: err.cause ?? err }, 'file storage unavailable')
    return reply
      .code(503)
      .header('retry-after', String(STORAGE_RETRY_AFTER_S))
      .send(errorBody(503, 'The file storage is unavailable; retry shortly', 'STORAGE_UNAVAILABLE'))
  }
  if (BAD_VALUE_SQLSTATES.has(sqlState(err) ?? '')) {
    request.log.warn({ sqlState: sqlState(err) }, 'value refused by the database')
    return reply
      .code(400)
      .send(
        errorBody(
          400,
          'A value in the request cannot be stored (invalid text or value)',
          'VALIDATION_FAILED',
        ),
      )
  }
  if (databaseUnavailable(err)) {
    request.log.warn({ code: errorCodes(err).join(',') }, 'database unavailable')
    return reply
      .code(503)
      .header('retry-after', '1')
      .send(errorBody(503, 'The database is unavailable; retry shortly', 'DATABASE_UNAVAILABLE'))
  }
  if (fastifyCodeOf(err) === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    const limit = request.routeOptions.bodyLimit ?? request.server.initialConfig.bodyLimit ?? 1_048_576
    return reply
      .code(413)
      .send(errorBody(413, `Request body is too large (${formatBytes(limit)} maximum)`, 'PAYLOAD_TOO_LARGE'))
  }
  const status = typeof err.statusCode === 'number' && err.statusCode >= 400 ? err.statusCode : 500
  if (status >= 500 && typeof err.code === 'string' && DELIBERATE_5XX.has(err.code)) {
    request.log.warn({ code: err.code }, 'service unavailable')
    return reply.code(status).send(errorBody(status, err.message, err.code))
  }
  if (status >= 500) {
    request.log.error({ err: loggable(err) }, 'request failed')
    return reply
      .code(status)
      .send(errorBody(status, 'Internal server error', status === 500 ? 'INTERNAL' : undefined))
  }
  // Client errors raised by Fastify and its plugins (415, 413, JSON syntax, 401/403/429 from the
  // auth and throttling plugins): their messages are written for clients and carry no paths.
  const fastifyCode = typeof err.code === 'string' ? err.code : undefined
  const code = fastifyCode ? (FASTIFY_CODE_MAP[fastifyCode] ?? fastifyCode) : undefined
  const message = (fastifyCode && SAFE_FASTIFY_MESSAGES[fastifyCode]) ?? err.message
  return reply.code(status).send(errorBody(status, message, code))
}

/** The `code` of an error and of its causes (a drizzle query error wraps the driver's). */
function errorCodes(err: unknown): string[] {
  const codes: string[] = []
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string') codes.push(code)
  }
  return codes
}

/** postgres.js codes of a connection that could not be made or was lost. */
const DB_CONNECTION_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
])
/** Socket errors, a database's only when a drizzle query error wraps them. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
])

/**
 * Whether a request failed because the database is unreachable or dropped its connection (PostgreSQL stopped or
 * restarting, a network cut, `pg_terminate_backend`): SQLSTATE class 08 (connection exception), 57P01-57P03
 * (shutdown, cannot connect now), postgres.js's connection codes, or a socket error under a drizzle query. Answered
 * 503 `DATABASE_UNAVAILABLE` (the load balancer may retry a GET elsewhere; the pool reconnects by itself).
 */
export function databaseUnavailable(err: unknown): boolean {
  const codes = errorCodes(err)
  const inQuery = typeof (err as { query?: unknown })?.query === 'string'
  return codes.some(
    (c) =>
      /^08[0-9A-Z]{3}$/.test(c) ||
      /^57P0[123]$/.test(c) ||
      DB_CONNECTION_CODES.has(c) ||
      (inQuery && SOCKET_CODES.has(c)),
  )
}

const fastifyCodeOf = (err: { code?: unknown }) => (typeof err.code === 'string' ? err.code : undefined)

/**
 * What a server fault logs: the error itself, except a drizzle query error, whose message lists the query's
 * parameter values (user ids, report texts, profile fields: personal data): logged as the SQL text, the driver's
 * message and SQLSTATE, and the stack frames, without the values.
 */
export function loggable(err: unknown): unknown {
  const e = err as { query?: unknown; params?: unknown; stack?: unknown; cause?: unknown }
  if (!(err instanceof Error) || typeof e.query !== 'string' || !Array.isArray(e.params)) return err
  const cause = e.cause as { message?: unknown } | undefined
  const frames = typeof e.stack === 'string' ? e.stack.split('\n').filter((l) => /^\s+at /.test(l)) : []
  return {
    type: err.name,
    message: `Failed query: ${e.query}`,
    sqlState: sqlState(err),
    ...(typeof cause?.message === 'string' && { cause: cause.message }),
    stack: [`${err.name}: Failed query: ${e.query}`, ...frames].join('\n'),
  }
}

/**
 * 5xx answers raised on purpose, whose message is written for clients: sent as is with their code instead of
 * `Internal server error` (the identity provider never reached at start-up, the server shutting down).
 */
const DELIBERATE_5XX = new Set<string>(['AUTH_UNAVAILABLE', 'SERVICE_UNAVAILABLE', 'VALIDATION_BUSY'])

/** Router-level errors (bad percent-encoding, a path parameter over 100 characters) never reach the error handler. */
export function handleFrameworkError(err: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const status = err.statusCode === 414 ? 414 : 400
  const message = status === 414 ? 'Path parameter too long' : 'Malformed URL'
  return reply.code(status).send(errorBody(status, message, 'BAD_URL'))
}

const CLIENT_ERRORS: Record<string, [number, string, ApiErrorCode]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request did not arrive in time', 'REQUEST_TIMEOUT'],
  HPE_HEADER_OVERFLOW: [431, 'Request headers are too large', 'HEADERS_TOO_LARGE'],
}

/**
 * Errors the HTTP parser raises before Fastify sees a request (a request or headers timeout, oversized headers,
 * bytes that are not HTTP): Fastify's own answer has no `code`; this one has the API's body. The connection is
 * closed after it, as Node requires.
 */
export function handleClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const [status, message, code] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'Malformed request', 'BAD_REQUEST']
  const body = JSON.stringify(errorBody(status, message, code))
  const reason =
    status === 408 ? 'Request Timeout' : status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'
  // As Node's own handler: nothing is written once an answer on this socket has started.
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (socket.writable && !inFlight?.headersSent) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    )
  }
  socket.destroy()
}

/** The 404 answer for unknown routes. */
export function handleNotFound(_request: FastifyRequest, reply: FastifyReply) {
  return reply.code(404).send(errorBody(404, 'Resource not found', 'NOT_FOUND'))
}

/** Standard error responses for route schemas (documentation and serialisation). */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, ErrorBodySchema])) as Record<number, typeof ErrorBodySchema>

/**
 * The 422 of a route that checks a package (upload, import): `PACKAGE_INVALID` with its `diagnostics`, or one of the
 * other 422 codes (the validation's time or memory budget, an unreadable answer) with the standard body. With
 * `PackageInvalidSchema` alone, a `VALIDATION_TIMEOUT` failed serialisation and reached the client as a 500.
 */
export const PackageRefusedSchema = z.union([
  PackageInvalidSchema,
  ErrorBodySchema.extend({
    statusCode: z.literal(422),
    code: z.enum(
      errorCodesOf(422).filter((c) => c !== 'PACKAGE_INVALID') as [ApiErrorCode, ...ApiErrorCode[]],
    ),
  }),
])

const SHUTTING_DOWN = JSON.stringify(
  errorBody(503, 'The server is shutting down; retry', 'SERVICE_UNAVAILABLE'),
)

/**
 * Graceful shutdown, the answer to requests that arrive while the server closes (on a keep-alive or pipelined
 * connection: new connections are no longer accepted): 503 `SERVICE_UNAVAILABLE` with the standard body, so the
 * load balancer retries elsewhere. Replaces Fastify's own `return503OnClosing` answer, whose body has an extra
 * `error` field; build the instance with `return503OnClosing: false` and call this after the CORS plugin (the
 * 503 then carries the CORS and security headers). Requests already in flight finish normally.
 */
export function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return
    // Serialised here: a route's own 503 schema (health) must not be applied to this body.
    reply.code(503).header('connection', 'close').type('application/json; charset=utf-8').send(SHUTTING_DOWN)
    return reply
  })
  // A request in flight when the close began: its connection is closed after the answer. Kept alive, it would hold
  // the close until the client let it go (nginx keeps idle upstream connections for a minute), past the shutdown
  // timeout: a forced exit 1 in the middle of other requests.
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close')
  })
}

/**
 * postgres.js drops the promise of the array-types query it runs first on every new connection
 * (porsager/postgres#1192, #1223, open for 3.4.9): a connection terminated just after it opened (`pg_terminate_backend`,
 * a failover, PostgreSQL restarting) rejects it with nobody listening, and Node ends the process on an unhandled
 * rejection. Such a database connection error is logged and ignored (the pool reconnects, requests answer 503
 * meanwhile); any other unhandled rejection still ends the process, as without this handler. Installed by server.ts.
 */
export function survivePoolRejections(): void {
  process.on('unhandledRejection', (reason) => {
    if (!databaseUnavailable(reason)) throw reason
    try {
      writeSync(
        2,
        `${JSON.stringify({
          level: 40,
          time: Date.now(),
          code: (reason as { code?: unknown }).code,
          msg: 'database connection lost as it opened (driver rejection ignored; the pool reconnects)',
        })}\n`,
      )
    } catch {
      // Nowhere left to say it.
    }
  })
}
