/**
 * The error body of every non-2xx answer of the API, `{ statusCode, code?, message }`, and its stable codes.
 */
import { z } from 'zod'

/** Stable error codes of the API (the `code` field of an error body). */
export const API_ERROR_CODES = {
  VALIDATION_FAILED: 'request validation failed (body, query, params or headers)',
  NOT_FOUND: 'the resource does not exist',
  UNAUTHORIZED: 'missing or invalid bearer token',
  AUTH_MISSING_TOKEN: 'no `Authorization: Bearer` header',
  AUTH_MALFORMED_HEADER: 'the Authorization header is not `Bearer <token>`',
  AUTH_INVALID_TOKEN: 'bad signature, issuer, audience or claims',
  AUTH_TOKEN_EXPIRED: 'the token has expired',
  AUTH_ALG_NOT_ALLOWED: 'the token is not signed with RS256',
  AUTH_NO_KID: 'the token header names no key',
  AUTH_UNKNOWN_KEY: 'the key is not in the identity provider key set',
  AUTH_SESSION_REVOKED: 'the session of this token was revoked',
  AUTH_UNAVAILABLE: 'the identity provider was never reachable (503)',
  FORBIDDEN: 'valid token without the right to do this',
  SESSION_NOT_FOUND: 'no such session of the caller',
  AUTH_EVENTS_FORBIDDEN:
    '`GET /api/auth/events?subject=` naming another user, by a caller who is not an administrator',
  THROTTLED: 'over a rate-limit tier (429, with Retry-After)',
  STORY_EXISTS: 'a story with this slug exists already',
  SERIES_EXISTS: 'a series with this slug exists already',
  INSTRUCTION_NOT_FOUND: 'the linked instruction package does not exist or is not an instruction',
  REPORT_RATE_LIMITED: 'more than 10 reports in 24 hours by one user',
  PRECONDITION_FAILED: 'If-Match names a stale revision',
  PRECONDITION_REQUIRED: 'overwriting a saved reading state needs If-Match',
  SERVICE_UNAVAILABLE: 'the server is shutting down (503; retry on another instance)',
  DATABASE_UNAVAILABLE:
    'the database cannot be reached or dropped the connection mid-request (503, with Retry-After; retry)',
  PAYLOAD_TOO_LARGE: 'request body over the limit',
  UNSUPPORTED_MEDIA_TYPE: 'request content type not accepted',
  BAD_URL: 'malformed or over-long request path',
  BAD_REQUEST: 'a request the HTTP parser could not read (400, connection closed)',
  REQUEST_TIMEOUT:
    'the request did not arrive within the request or headers timeout (408, connection closed)',
  HEADERS_TOO_LARGE: 'request headers over the size limit (431, connection closed)',
  RANGE_NOT_SATISFIABLE:
    'the Range header names no byte of the file (416, with `Content-Range: bytes */<size>`)',
  READING_STATE_QUOTA: 'saving this reading state would exceed the per-user quota (count or bytes)',
  READING_STATE_OTHER_STORY:
    "the reading state saved at `/api/progress/:storyId` has another `id`: the key is the state's story `id` (400)",
  PACKAGE_INVALID: 'the uploaded package has a fatal or error diagnostic (422, with `diagnostics`)',
  PACKAGE_TOO_LARGE:
    'the uploaded package is over the package size limit (413, refused before it is all read)',
  PACKAGE_ID_MISMATCH: "the package's manifest `id` is not the id of the story's first version (409)",
  PACKAGE_TYPE_MISMATCH: 'a story package uploaded to an instruction record, or the reverse (409)',
  VERSION_EXISTS: 'this story already has a version with this `manifest.version` (409)',
  NO_VALID_VERSION: 'publishing a story that has no uploaded version, or not the named one (409)',
  STORAGE_UNAVAILABLE:
    'the file storage (S3 service or filesystem) cannot be reached or failed; nothing was stored (503, with Retry-After; retry)',
  STORAGE_QUOTA_EXCEEDED: "the upload would take the user's stored packages over the per-user quota (413)",
  VALIDATION_TIMEOUT: 'checking the package took longer than the validation time budget (422)',
  VALIDATION_MEMORY_EXCEEDED: 'checking the package needed more memory than a validation may use (422)',
  VALIDATION_BUSY: 'too many packages are being checked at once; retry shortly (503, with Retry-After)',
  VALIDATION_IN_PROGRESS:
    "one of the uploader's packages is being checked already: one user has one validation at a time (429, with Retry-After)",
  VALIDATION_UNREADABLE:
    'checking the package gave an answer the server cannot read (a manifest value nested too deep to pass between threads); nothing was stored (422)',
  SIGNING_KEY_INVALID: 'a signing key is not a signify Ed25519 public key (400)',
  PLAYER_NOT_BUILT: 'the web player is not built, so `/` has nothing to serve (404; `pnpm start` builds it)',
  INTERNAL: 'server fault',
} as const

/** One of {@link API_ERROR_CODES}. */
export type ApiErrorCode = keyof typeof API_ERROR_CODES

/**
 * The HTTP statuses each code is answered with (`BAD_URL` is 400, or 414 for an over-long path parameter). A route's
 * error schema for a status admits every code of that status (the API's tests walk every route).
 */
export const API_ERROR_STATUS: { readonly [C in ApiErrorCode]: readonly number[] } = {
  VALIDATION_FAILED: [400],
  NOT_FOUND: [404],
  UNAUTHORIZED: [401],
  AUTH_MISSING_TOKEN: [401],
  AUTH_MALFORMED_HEADER: [401],
  AUTH_INVALID_TOKEN: [401],
  AUTH_TOKEN_EXPIRED: [401],
  AUTH_ALG_NOT_ALLOWED: [401],
  AUTH_NO_KID: [401],
  AUTH_UNKNOWN_KEY: [401],
  AUTH_SESSION_REVOKED: [401],
  AUTH_UNAVAILABLE: [503],
  FORBIDDEN: [403],
  SESSION_NOT_FOUND: [404],
  AUTH_EVENTS_FORBIDDEN: [403],
  THROTTLED: [429],
  STORY_EXISTS: [409],
  SERIES_EXISTS: [409],
  INSTRUCTION_NOT_FOUND: [400],
  REPORT_RATE_LIMITED: [409],
  PRECONDITION_FAILED: [412],
  PRECONDITION_REQUIRED: [428],
  SERVICE_UNAVAILABLE: [503],
  DATABASE_UNAVAILABLE: [503],
  PAYLOAD_TOO_LARGE: [413],
  UNSUPPORTED_MEDIA_TYPE: [415],
  BAD_URL: [400, 414],
  BAD_REQUEST: [400],
  REQUEST_TIMEOUT: [408],
  HEADERS_TOO_LARGE: [431],
  RANGE_NOT_SATISFIABLE: [416],
  READING_STATE_QUOTA: [409],
  READING_STATE_OTHER_STORY: [400],
  PACKAGE_INVALID: [422],
  PACKAGE_TOO_LARGE: [413],
  PACKAGE_ID_MISMATCH: [409],
  PACKAGE_TYPE_MISMATCH: [409],
  VERSION_EXISTS: [409],
  NO_VALID_VERSION: [409],
  STORAGE_UNAVAILABLE: [503],
  STORAGE_QUOTA_EXCEEDED: [413],
  VALIDATION_TIMEOUT: [422],
  VALIDATION_MEMORY_EXCEEDED: [422],
  VALIDATION_BUSY: [503],
  VALIDATION_IN_PROGRESS: [429],
  VALIDATION_UNREADABLE: [422],
  PLAYER_NOT_BUILT: [404],
  SIGNING_KEY_INVALID: [400],
  INTERNAL: [500],
}

/** The codes answered with `status`. */
export function errorCodesOf(status: number): ApiErrorCode[] {
  return (Object.keys(API_ERROR_STATUS) as ApiErrorCode[]).filter((c) => API_ERROR_STATUS[c].includes(status))
}

/** The error body of every non-2xx answer. */
export const ErrorBodySchema = z
  .object({
    statusCode: z.number().int(),
    code: z.string().optional(),
    message: z.string(),
  })
  .meta({
    id: 'Error',
    description: 'Every error answer has this shape',
    examples: [{ statusCode: 404, code: 'NOT_FOUND', message: 'Story not found' }],
  })

/** An error body; see {@link ErrorBodySchema}. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>
