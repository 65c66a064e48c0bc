/**
 * What every request brings in is checked here before any recursive validation: JSON bodies are scanned
 * iteratively (nesting depth, number of values) before `JSON.parse`, and every string that comes in (body keys
 * and values, query, path parameters, token claims) follows one rule: no U+0000 and no lone surrogate
 * (`isWellFormed()`). PostgreSQL refuses U+0000 in text (SQLSTATE 22021/22P05: a 500 before this) and the
 * driver silently turns a lone surrogate into U+FFFD.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ApiError } from './errors'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Most JSON values a body of this route may hold (see {@link MAX_BODY_VALUES}). */
    maxBodyValues?: number
    /** Most object members (keys) a body of this route may hold; absent: as many as values. */
    maxBodyMembers?: number
  }
}

/** Deepest nesting of a JSON body (the body itself is level 1): the reading state's own limit. */
export const MAX_BODY_DEPTH = 64

/**
 * Most JSON values (every object, array, string, number, boolean and null counts one) in a body, unless the
 * route sets `config.maxBodyValues`: the largest ordinary body (50 CSP reports) holds about 1,000. Parsing and
 * validating cost in proportion to this count, not to the byte size: 1 MB of `[],` is 350,000 values.
 */
export const MAX_BODY_VALUES = 10_000

/** A problem the scan found before parsing. */
export interface JsonScanProblem {
  kind: 'depth' | 'values' | 'members'
}

/** The bounds of {@link scanJson}. */
export interface JsonScanLimits {
  depth: number
  values: number
  /**
   * Object members (keys), which cost several times an array item to parse and store (an object of 55,000 keys:
   * ~30 ms of JSON.parse, against ~5 ms for 125,000 empty arrays). @default values
   */
  members?: number
}

/**
 * Scans JSON text without parsing it, in one linear pass with no recursion: refuses nesting deeper than
 * `limits.depth`, more than `limits.values` values and more than `limits.members` object members. Text that is not JSON is left for `JSON.parse` to refuse (the
 * counts of broken text are approximate; the verdict on it is JSON.parse's).
 *
 * @example
 * scanJson('[[[]]]', { depth: 2, values: 100 }) // { kind: 'depth' }
 * scanJson('{"a":[1,2]}', { depth: 64, values: 100 }) // undefined (4 values, 1 member)
 */
export function scanJson(text: string, limits: JsonScanLimits): JsonScanProblem | undefined {
  const { depth: maxDepth, values: maxValues } = limits
  const maxMembers = limits.members ?? maxValues
  let members = 0
  // 1: array, 2: object, per open level; the depth is bounded, so is this array.
  const open = new Uint8Array(maxDepth + 2)
  let depth = 0
  let values = 1
  let firstInArray = false
  const n = text.length
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue
    if (firstInArray) {
      firstInArray = false
      if (c !== 0x5d) values++
    }
    switch (c) {
      case 0x22: {
        // a string: to its closing quote, skipping escaped quotes
        let j = i
        for (;;) {
          j = text.indexOf('"', j + 1)
          if (j < 0) return undefined
          let backslashes = 0
          while (text.charCodeAt(j - 1 - backslashes) === 0x5c) backslashes++
          if (backslashes % 2 === 0) break
        }
        i = j
        break
      }
      case 0x5b: // [
        if (++depth > maxDepth) return { kind: 'depth' }
        open[depth] = 1
        firstInArray = true
        break
      case 0x7b: // {
        if (++depth > maxDepth) return { kind: 'depth' }
        open[depth] = 2
        break
      case 0x5d: // ]
      case 0x7d: // }
        if (depth > 0) depth--
        break
      case 0x2c: // , between array items (between members, the ':' counts the value)
        if (open[depth] === 1 && ++values > maxValues) return { kind: 'values' }
        break
      case 0x3a: // :
        if (++members > maxMembers) return { kind: 'members' }
        if (++values > maxValues) return { kind: 'values' }
        break
    }
    if (values > maxValues) return { kind: 'values' }
  }
  return undefined
}

/** Why a string is refused, or undefined when it follows the rule (no U+0000, no lone surrogate). */
export function stringProblem(s: string): string | undefined {
  if (s.includes('\u0000')) return 'must not contain U+0000'
  if (!(s as string & { isWellFormed(): boolean }).isWellFormed()) return 'must not contain a lone surrogate'
  return undefined
}

/** Whether a string follows the rule of {@link stringProblem}. */
export function isCleanString(s: string): boolean {
  return stringProblem(s) === undefined
}

const segment = (key: string | number) =>
  typeof key === 'number'
    ? `[${key}]`
    : /^[A-Za-z_$][\w$-]*$/.test(key)
      ? `.${key}`
      : `[${JSON.stringify(key)}]`

/**
 * The first string (object key or string value) in a parsed JSON value that breaks the rule of
 * {@link stringProblem}, with its path (`.variables.name`); iterative, so any depth is safe.
 *
 * @example
 * findBadString({ a: ['x', 'y\u0000'] }) // { path: '.a[1]', problem: 'must not contain U+0000' }
 */
export function findBadString(value: unknown): { path: string; problem: string } | undefined {
  const stack: Array<{ v: unknown; path: string }> = [{ v: value, path: '' }]
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { v, path } = top
    if (typeof v === 'string') {
      const problem = stringProblem(v)
      if (problem) return { path, problem }
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        const item = v[i]
        if (typeof item === 'object' || typeof item === 'string')
          stack.push({ v: item, path: path + segment(i) })
      }
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v)
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i] as [string, unknown]
        const problem = stringProblem(key)
        if (problem) return { path: path + segment(key), problem: `key ${problem}` }
        if (typeof item === 'object' || typeof item === 'string')
          stack.push({ v: item, path: path + segment(key) })
      }
    }
  }
  return undefined
}

const BODY_TEXT = Symbol('spkg.bodyText')

/** The JSON text a request's body was parsed from (undefined when the body was not JSON). */
export function bodyTextOf(request: FastifyRequest): string | undefined {
  return (request as unknown as { [BODY_TEXT]?: string })[BODY_TEXT]
}

const invalid = (message: string) => new ApiError(400, 'VALIDATION_FAILED', message)

type ParserDone = (err: Error | null, body?: unknown) => void
type JsonParser = (request: FastifyRequest, body: string, done: ParserDone) => void

/**
 * The JSON body parser of every route and content type the API reads as JSON: the {@link scanJson} bounds
 * (`config.maxBodyValues` of the route, else {@link MAX_BODY_VALUES}), then Fastify's parser (`__proto__` and
 * `constructor.prototype` refused), then the string rule on every key and string value. Escaped `\u` sequences
 * are the only way JSON text can carry U+0000 or a lone surrogate (raw ones are invalid JSON or become U+FFFD
 * when the bytes are decoded), so the walk runs only when the text has one.
 */
export function boundedJsonParser(app: FastifyInstance): JsonParser {
  const parse = app.getDefaultJsonParser('error', 'error') as unknown as JsonParser
  return (request, body, done) => {
    const { maxBodyValues = MAX_BODY_VALUES, maxBodyMembers } = request.routeOptions.config
    const problem = scanJson(body, { depth: MAX_BODY_DEPTH, values: maxBodyValues, members: maxBodyMembers })
    if (problem?.kind === 'depth') return done(invalid(`body: nests deeper than ${MAX_BODY_DEPTH} levels`))
    if (problem) {
      const [limit, what] =
        problem.kind === 'members'
          ? [maxBodyMembers ?? maxBodyValues, 'object members (keys)']
          : [maxBodyValues, 'JSON values (objects, arrays and scalars)']
      return done(
        new ApiError(413, 'PAYLOAD_TOO_LARGE', `body: more than ${limit.toLocaleString('en')} ${what}`),
      )
    }
    parse(request, body, (err, value) => {
      if (err) {
        const code = (err as { code?: unknown }).code
        if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return done(invalid('body: must not be empty'))
        // Fastify's message names application/json whatever the content type: tell the two refusals apart here.
        let proto = false
        try {
          JSON.parse(body)
          proto = true // valid JSON, refused for a "__proto__" or "constructor.prototype" key
        } catch {}
        return done(
          invalid(
            proto
              ? 'body: a "__proto__" or "constructor.prototype" key is not allowed'
              : 'body: not valid JSON',
          ),
        )
      }
      if (body.includes('\\u')) {
        const bad = findBadString(value)
        if (bad) return done(invalid(`body${bad.path}: ${bad.problem}`))
      }
      ;(request as unknown as { [BODY_TEXT]?: string })[BODY_TEXT] = body
      done(null, value)
    })
  }
}

/** Checks the query and path parameters of a request against the string rule (400 on the first bad one). */
export function checkRequestStrings(request: FastifyRequest): void {
  for (const [part, values] of [
    ['querystring', request.query],
    ['params', request.params],
  ] as const) {
    if (values === null || typeof values !== 'object') continue
    const bad = findBadString(values)
    if (bad) throw invalid(`${part}${bad.path}: ${bad.problem}`)
  }
}

/**
 * Installs the bounded JSON parser (every JSON content type the app already parses, `application/json`) and the
 * query/params string check (a `preValidation` hook: after parsing, before zod). Routes adding their own JSON
 * content types (CSP reports) register {@link boundedJsonParser} for them.
 */
export function inputRules(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, boundedJsonParser(app))
  app.addHook('preValidation', async (request) => checkRequestStrings(request))
}
