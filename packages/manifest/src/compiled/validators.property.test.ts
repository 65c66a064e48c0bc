/**
 * Property: every compiled validator gives exactly what its zod schema's `safeParse` gives: the
 * same success, the same value (same keys, same order) or the same issues (code, path, message
 * and every field), on valid, mutated and odd input. zod is the reference; `validators.ts` is
 * generated from it.
 */
import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { FIELD, json, key } from '../../test/helpers/arbitraries'
import { MANIFEST_FIELD_NAMES } from '../fields'
import { JsonValueSchema } from '../json-value-schema'
import { NamesMapSchema } from '../names-map-schema'
import { READING_STATE_FORMAT } from '../reading-state-format'
import { ReadingStateSchema, SAVED_AT } from '../reading-state-schema'
import { MANIFEST_FIELDS } from '../schema'
import { zodVersion } from './generate'
import type { Result } from './issues'
import {
  checkJsonValue,
  checkNamesMap,
  checkReadingState,
  checkSavedAt,
  MANIFEST_FIELD_CHECKS,
} from './validators'

/** Values no JSON file holds, which a caller may still pass. */
const odd = fc.oneof(
  fc.constantFrom(
    undefined,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    -0,
    1.5,
    2 ** 53,
  ),
  fc.constantFrom(
    -1,
    4294967295,
    4294967296,
    -(2 ** 53),
    '',
    'x',
    '2024-02-29T12:00:00Z',
    '2023-02-29T12:00:00Z',
  ),
  fc.constantFrom('2024-01-01T00:00:00.5+01:00', '2024-01-01T00:00Z', '\ud83d\ude00', '\ud83d'),
  fc.constantFrom(new Date(0), new Map(), new Set(), () => 1, Symbol('s'), 10n, Object.create(null)),
  fc.constant(Object.assign(Object.create({ inherited: 1 }), { own: 'x' })),
  fc.constant({ [Symbol('k')]: 'symbol key', a: 'b' }),
  fc.constant(JSON.parse('{"__proto__": {"x": 1}, "a": "b"}')),
  fc.anything({ withNullPrototype: true, withSparseArray: true, withBoxedValues: true, maxDepth: 2 }),
)

/** `value` with one place in it (itself, or a member at any depth) replaced by `junk`. */
const mutate = (value: unknown, path: number[], junk: unknown): unknown => {
  if (path.length === 0 || typeof value !== 'object' || value === null) return junk
  const keys: PropertyKey[] = Array.isArray(value) ? [...value.keys()] : Reflect.ownKeys(value)
  if (keys.length === 0) return junk
  const k = keys[path[0]! % keys.length]!
  const copy = (Array.isArray(value) ? [...value] : { ...value }) as Record<PropertyKey, unknown>
  copy[k] = mutate((value as Record<PropertyKey, unknown>)[k], path.slice(1), junk)
  return copy
}
const mutated = (base: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { arbitrary: base, weight: 2 },
    { arbitrary: odd, weight: 1 },
    {
      arbitrary: fc
        .tuple(base, fc.array(fc.nat(), { maxLength: 4 }), fc.oneof(odd, json))
        .map(([v, path, junk]) => mutate(v, path, junk)),
      weight: 3,
    },
  )

/**
 * The zod releases whose parse the compiled checks (parsers.ts, issues.ts: abort rules, issue
 * shapes, English messages) were written after and compared with. Another release may word or
 * order issues differently: re-run `pnpm --filter @spkg/manifest generate` and this suite, fix
 * what differs, then add it here.
 */
const ZOD_CHECKED = ['4.6.7']

it('runs against a zod release the compiled checks were checked against', () => {
  expect(ZOD_CHECKED).toContain(zodVersion())
})

function same(compiled: Result, schema: z.ZodType, value: unknown): void {
  const reference = schema.safeParse(value)
  expect(compiled.success).toBe(reference.success)
  if (compiled.success && reference.success) {
    expect(compiled.data).toStrictEqual(reference.data)
    expect(Reflect.ownKeys(Object(compiled.data))).toEqual(Reflect.ownKeys(Object(reference.data)))
  } else if (!compiled.success && !reference.success) {
    expect(compiled.issues).toStrictEqual(reference.error.issues)
  }
}

describe('compiled manifest fields', () => {
  for (const field of MANIFEST_FIELD_NAMES) {
    const schema = MANIFEST_FIELDS[field] as z.ZodType
    const { kind, check, member } = MANIFEST_FIELD_CHECKS[field]
    test.prop([mutated(FIELD[field])], { numRuns: 300 })(`${field}: exactly zod's result`, (value) => {
      same(check(value), schema, value)
      if (kind !== 'value') {
        const inner = (
          kind === 'array' ? (schema as z.ZodArray).element : (schema as z.ZodRecord).valueType
        ) as z.ZodType
        const members = Array.isArray(value)
          ? value
          : typeof value === 'object' && value
            ? Object.values(value)
            : [value]
        for (const m of members) same(member!(m), inner, m)
      }
    })
  }
})

const uint = fc.oneof(fc.integer({ min: 0, max: 0xffff_ffff }), fc.constantFrom(-1, 0.5, 2 ** 32))
const readingState = fc.record(
  {
    format: fc.oneof(
      { arbitrary: fc.constant(READING_STATE_FORMAT), weight: 5 },
      { arbitrary: fc.constantFrom(0, 2, '1'), weight: 1 },
    ),
    id: fc.oneof(fc.uuid(), fc.constant('')),
    version: fc.oneof(fc.string({ maxLength: 4 }), fc.constant(undefined)),
    savedAt: fc.oneof(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.constantFrom('2024-01-01', 'now'),
    ),
    variables: fc.dictionary(key, json, { maxKeys: 4 }),
    choices: fc.dictionary(key, fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }), { maxKeys: 3 }),
    visitedChoiceGroups: fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
    rng: fc.record({ algorithm: fc.constantFrom('mulberry32', 'xorshift'), seed: uint, state: uint }),
    currentPart: fc.oneof(fc.constantFrom('story/0001-a.sty', ''), fc.constant(undefined)),
    visitedParts: fc.array(fc.constantFrom('story/0001-a.sty', ''), { maxLength: 3 }),
    renderedParagraph: fc.oneof(fc.integer({ min: -2, max: 40 }), fc.constant(0.5)),
    tunnels: fc.array(fc.constantFrom('story/0001-a.sty:h0->1', ''), { maxLength: 2 }),
    extra: json,
  },
  {
    requiredKeys: [
      'format',
      'id',
      'variables',
      'choices',
      'visitedChoiceGroups',
      'rng',
      'visitedParts',
      'renderedParagraph',
    ],
  },
)

describe('compiled reading state, JSON value and date', () => {
  test.prop([mutated(readingState)], { numRuns: 1000 })("reading state: exactly zod's result", (value) => {
    same(checkReadingState(value), ReadingStateSchema, value)
  })
  test.prop([mutated(json)], { numRuns: 1000 })(
    "JSON value (session.json values): exactly zod's result",
    (value) => {
      same(checkJsonValue(value), JsonValueSchema, value)
    },
  )
  test.prop(
    [
      mutated(
        fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          fc.string(),
        ),
      ),
    ],
    {
      numRuns: 500,
    },
  )("savedAt: exactly zod's result", (value) => {
    same(checkSavedAt(value), SAVED_AT, value)
  })
  const names = fc.dictionary(key, fc.string({ maxLength: 8 }), { maxKeys: 4 })
  const namesMap = fc.record(
    { version: fc.constant(1), variables: names, functions: names, ids: names },
    { requiredKeys: ['version', 'variables'] },
  )
  test.prop([mutated(namesMap)], { numRuns: 500 })("names map: exactly zod's result", (value) => {
    same(checkNamesMap(value), NamesMapSchema, value)
  })
})
