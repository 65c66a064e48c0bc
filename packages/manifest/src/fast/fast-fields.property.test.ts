/**
 * Property: the fast path of `parseManifest` accepts a field exactly when the schema's check
 * (compiled/validators.ts, exactly zod) accepts it without a diagnostic, and then returns the identical value (same key order); the
 * whole parse gives identical manifests and diagnostics with the fast path on and off, and with
 * an owned input (reused, not copied) too.
 */
import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { FIELD, manifest } from '../../test/helpers/arbitraries'
import type { Diagnostic } from '../diagnostic'
import { MANIFEST_FIELD_NAMES, type ManifestField } from '../fields'
import { derivePartName, normalizeField } from '../normalize'
import { parseManifestWith, validateFieldWithSchema } from '../parse-manifest'
import { fastField } from './fast-fields'

/** Inputs the fast path leaves to zod on purpose, whatever zod says about them. */
function leftToZod(field: ManifestField, value: unknown): boolean {
  const walk = (v: unknown): boolean =>
    typeof v === 'object' && v !== null && Object.entries(v).some(([k, x]) => k === '__proto__' || walk(x))
  if (walk(value)) return true
  return (
    field === 'allowed_urls' &&
    Array.isArray(value) &&
    value.some((u) => typeof u === 'object' && u !== null && 'params' in u)
  )
}

describe('manifest fast path', () => {
  for (const field of MANIFEST_FIELD_NAMES)
    test.prop([FIELD[field]], { numRuns: 200 })(
      `${field}: accepted exactly when zod accepts it cleanly, with the identical value`,
      (value) => {
        const out: Diagnostic[] = []
        const slow = validateFieldWithSchema(field, value, { [field]: value }, 'manifest.json', out)
        const zodAccepts = slow.ok && out.length === 0
        const fast = fastField(field, value)
        if (fast) {
          expect(zodAccepts).toBe(true)
          expect(fast.value).toStrictEqual(slow.value)
          expect(JSON.stringify(fast.value)).toBe(JSON.stringify(slow.value))
          if (fast.same) expect(JSON.stringify(fast.value)).toBe(JSON.stringify(value))
        } else if (!leftToZod(field, value)) expect(zodAccepts).toBe(false)
      },
    )

  test.prop([manifest], { numRuns: 300 })('parseManifest gives the same result with and without it', (m) => {
    const fast = parseManifestWith(m, {}, true)
    const slow = parseManifestWith(m, {}, false)
    expect(fast).toStrictEqual(slow)
    expect(JSON.stringify(fast)).toBe(JSON.stringify(slow))
  })

  for (const field of MANIFEST_FIELD_NAMES)
    test.prop([FIELD[field]], { numRuns: 200 })(
      `${field}: owned input gives the identical value, and normalizeField returns a new value exactly when the JSON changes`,
      (value) => {
        const copy = () => structuredClone(value)
        const fast = fastField(field, copy())
        const owned = fastField(field, copy(), true)
        expect(owned).toStrictEqual(fast)
        const normalized = normalizeField(field, value)
        expect(!Object.is(normalized, value)).toBe(JSON.stringify(normalized) !== JSON.stringify(value))
      },
    )

  test.prop([manifest], { numRuns: 300 })('an owned (JSON.parse) input gives the same result as zod', (m) => {
    const text = JSON.stringify(m)
    const owned = parseManifestWith(JSON.parse(text), {}, true, true)
    const slow = parseManifestWith(JSON.parse(text), {}, false)
    expect(owned).toStrictEqual(slow)
    expect(JSON.stringify(owned)).toBe(JSON.stringify(slow))
  })

  test('an owned input is reused, not copied; a caller-held input is copied', () => {
    const parts = [{ file: 'story/0001-inn.sty', name: 'Inn' }]
    const integrity = { 'story/0001-inn.sty': 'a'.repeat(64) }
    expect(fastField('parts', parts, true)?.value).toBe(parts)
    expect(fastField('integrity', integrity, true)?.value).toBe(integrity)
    expect(fastField('parts', parts)?.value).not.toBe(parts)
    expect(fastField('integrity', integrity)?.value).not.toBe(integrity)
    // Reordered keys are copied into shape order even when owned.
    const reordered = [{ name: 'Inn', file: 'story/0001-inn.sty' }]
    expect(fastField('parts', reordered, true)?.value).not.toBe(reordered)
  })

  test('a canonical manifest is taken without zod and a bad field still gets zod wording', () => {
    const m = {
      id: '123e4567-e89b-12d3-a456-426614174000',
      parts: [{ name: 'Inn', file: 'story/0001-inn.sty' }],
      integrity: { 'story/0001-inn.sty': 'a'.repeat(64) },
    }
    expect(fastField('parts', m.parts)?.value).toEqual([{ file: 'story/0001-inn.sty', name: 'Inn' }])
    expect(fastField('integrity', { x: 'A'.repeat(64) })).toBeUndefined()
    const bad = parseManifestWith({ ...m, direction: 'up' }, {}, true)
    expect(bad.diagnostics.map((d) => d.code)).toContain('manifest/invalid-direction')
  })
})

describe('derivePartName', () => {
  /** The regular-expression form it replaced (split, then strip the extension by pattern). */
  const reference = (file: string): string => {
    const base = file.split('/').pop() ?? file
    const stem = base.replace(/\.[^.]+$/, '')
    const words = stem
      .replace(/^\d+(?:[-_. ]+|$)/, '')
      .replace(/[-_]+/g, ' ')
      .trim()
    const name = words.length > 0 ? words : stem
    return name.length > 0 ? name.charAt(0).toUpperCase() + name.slice(1) : base
  }
  // Digits (ASCII and one \d does not match), every prefix separator, whitespace trim() removes.
  const file = fc.string({ unit: fc.constantFrom(...'aB09/.-_ \n\t\u00a0\u0663'), maxLength: 16 })
  test.prop([file], { numRuns: 5000 })('names a part exactly as the pattern form did', (f) => {
    expect(derivePartName(f)).toBe(reference(f))
  })
})
