/**
 * Compiles the zod schemas into plain validators (`validators.ts`), so the runtime paths
 * (`parseManifest`, `parseSession`, `parseReadingState`) never load zod: a browser bundle of
 * reader + story drops it, and a process that imports `@spkg/manifest` does not pay zod's import.
 * zod stays the single source of truth: this walks each schema's definition and writes code that
 * does what zod's parse does for it (`validators.property.test.ts` compares the two on valid and
 * mutated input; `generated.test.ts` fails when the committed file drifts from this output).
 * `pnpm --filter @spkg/manifest generate` rewrites it.
 *
 * Only the schema kinds and checks the spkg schemas use are supported; anything else throws here,
 * at build time, rather than compiling to something that might differ from zod.
 */
import { MANIFEST_FIELD_NAMES } from '../fields'
import { JsonValueSchema } from '../json-value-schema'
import { ReadingStateSchema, SAVED_AT } from '../reading-state-schema'
import { MANIFEST_FIELDS } from '../schema'

// zod's internals, as far as this compiler reads them.
// biome-ignore lint/suspicious/noExplicitAny: zod's internal definitions are untyped here
type Def = Record<string, any>
type Node = { _zod: { def: Def; traits: Set<string>; optin?: string; optout?: string; innerType?: Node } }

class Emitter {
  readonly functions: string[] = []
  private readonly names = new Map<unknown, string>()
  private readonly constants: string[] = []

  private readonly constantNames = new Map<string, string>()
  private readonly bodies = new Map<string, string>()

  /** A module-level constant holding `code` (one per distinct code). */
  constant(code: string): string {
    const known = this.constantNames.get(code)
    if (known) return known
    const name = `K${this.constants.length}`
    this.constants.push(`const ${name} = ${code}`)
    this.constantNames.set(code, name)
    return name
  }

  /** The name of the function that parses `schema` (emitted once per schema instance). */
  fn(schema: Node): string {
    const key = schema._zod.def.type === 'lazy' ? schema._zod.def : schema
    const known = this.names.get(key)
    if (known) return known
    if (schema._zod.def.type !== 'lazy') {
      // Schemas that compile alike (every \`z.string().meta(...)\` of the manifest) share one function.
      const body = this.body(schema)
      const same = this.bodies.get(body)
      if (same) {
        this.names.set(key, same)
        return same
      }
      const name = `p${this.bodies.size}`
      this.bodies.set(body, name)
      this.names.set(key, name)
      this.functions.push(`function ${name}(v: any, iss: RawIssue[]): any {\n${body}\n}`)
      return name
    }
    // A lazy schema may refer to itself: named before its body is compiled.
    const name = `p${this.bodies.size}`
    this.bodies.set(`lazy ${name}`, name)
    this.names.set(key, name)
    const slot = this.functions.length
    this.functions.push('')
    this.functions[slot] = `function ${name}(v: any, iss: RawIssue[]): any {\n${this.body(schema)}\n}`
    return name
  }

  header(): string {
    return this.constants.join('\n')
  }

  private body(schema: Node): string {
    const def = schema._zod.def
    const checks: Node[] = schema._zod.traits.has('$ZodCheck')
      ? [schema, ...((def.checks as Node[]) ?? [])]
      : ((def.checks as Node[]) ?? [])
    const parse = this.parse(schema)
    if (checks.length === 0) return `${parse}\nreturn v`
    return `${parse}\nlet ab = aborted(iss)\n${checks.map((c) => this.check(c)).join('\n')}\nreturn v`
  }

  private typeIssue(expected: string, extra = ''): string {
    return `iss.push({ expected: '${expected}', code: 'invalid_type', input: v${extra} })`
  }

  private parse(schema: Node): string {
    const def = schema._zod.def
    switch (def.type) {
      case 'string':
        if (def.coerce) throw unsupported('coerce')
        return `if (typeof v !== 'string') ${this.typeIssue('string')}`
      case 'number':
        if (def.coerce) throw unsupported('coerce')
        return `if (typeof v !== 'number' || Number.isNaN(v) || !Number.isFinite(v)) ${this.typeIssue('number', ", ...(typeof v === 'number' ? { received: Number.isNaN(v) ? 'NaN' : String(v) } : {})")}`
      case 'boolean':
        return `if (typeof v !== 'boolean') ${this.typeIssue('boolean')}`
      case 'null':
        return `if (v !== null) ${this.typeIssue('null')}`
      case 'unknown':
        return ''
      case 'enum':
      case 'literal': {
        const values: unknown[] = def.type === 'enum' ? Object.values(def.entries) : def.values
        if (def.type === 'enum' && values.some((x) => typeof x !== 'string'))
          throw unsupported('numeric enum')
        const list = this.constant(JSON.stringify(values))
        const set = this.constant(`new Set<unknown>(${list})`)
        return `if (!${set}.has(v)) iss.push({ code: 'invalid_value', values: ${list}, input: v })`
      }
      case 'optional': {
        const inner = def.innerType as Node
        if (inner._zod.optin === 'defaulted') throw unsupported('optional default')
        return `if (v === undefined) return v\nv = ${this.fn(inner)}(v, iss)`
      }
      case 'lazy':
        return `v = ${this.fn(schema._zod.innerType as Node)}(v, iss)`
      case 'array':
        return [
          `if (!Array.isArray(v)) ${this.typeIssue('array')}`,
          'else {',
          '  const out = new Array(v.length)',
          '  for (let i = 0; i < v.length; i++) {',
          '    const r: RawIssue[] = []',
          `    out[i] = ${this.fn(def.element)}(v[i], r)`,
          '    if (r.length) prefix(iss, i, r)',
          '  }',
          '  v = out',
          '}',
        ].join('\n')
      case 'record': {
        const key = def.keyType as Node
        if (key._zod.def.type !== 'string' || key._zod.def.checks?.length || def.mode)
          throw unsupported('record keys other than z.string()')
        return [
          `if (!isRecordLike(v)) ${this.typeIssue('record')}`,
          'else {',
          '  const out: any = {}',
          '  for (const key of Reflect.ownKeys(v)) {',
          "    if (key === '__proto__' || !Object.prototype.propertyIsEnumerable.call(v, key)) continue",
          "    if (typeof key !== 'string') {",
          "      iss.push({ code: 'invalid_key', origin: 'record', issues: [finalize({ expected: 'string', code: 'invalid_type', input: key })], input: key, path: [key] })",
          '      continue',
          '    }',
          '    const r: RawIssue[] = []',
          `    out[key] = ${this.fn(def.valueType)}(v[key], r)`,
          '    if (r.length) prefix(iss, key, r)',
          '  }',
          '  v = out',
          '}',
        ].join('\n')
      }
      case 'object':
        return this.object(def)
      case 'union': {
        if (def.inclusive === false || def.discriminator)
          throw unsupported('exclusive or discriminated union')
        const options = (def.options as Node[]).map((o) => this.fn(o))
        if (options.length === 1) return `v = ${options[0]}(v, iss)`
        return [
          'const results: Array<[unknown, RawIssue[]]> = []',
          ...options.flatMap((o, i) => [
            `const r${i}: RawIssue[] = []`,
            `const v${i} = ${o}(v, r${i})`,
            `if (r${i}.length === 0) return v${i}`,
            `results.push([v${i}, r${i}])`,
          ]),
          'const open = results.filter(([, r]) => !aborted(r))',
          'if (open.length === 1) {',
          '  iss.push(...open[0]![1])',
          '  return open[0]![0]',
          '}',
          "iss.push({ code: 'invalid_union', input: v, errors: results.map(([, r]) => r.map(finalize)) })",
        ].join('\n')
      }
      default:
        throw unsupported(def.type)
    }
  }

  private object(def: Def): string {
    const shape = def.shape as Record<string, Node>
    if (Object.getOwnPropertySymbols(shape).length) throw unsupported('symbol keys')
    const catchall = def.catchall as Node | undefined
    if (catchall && catchall._zod.def.type !== 'unknown') throw unsupported('catchall other than unknown')
    const keys = Object.keys(shape)
    const lines = [`if (!isObject(v)) ${this.typeIssue('object')}`, 'else {', '  const out: any = {}']
    for (const key of keys) {
      if (key === '__proto__') continue
      const k = JSON.stringify(key)
      const child = shape[key]!
      const { optin, optout } = child._zod
      if (optin === 'defaulted') throw unsupported('defaulted property')
      lines.push('  {')
      lines.push(`    const present = ${k} in v`)
      if (optin === 'optional' && optout === 'optional') lines.push('    if (present) {')
      else lines.push('    {')
      lines.push('      const r: RawIssue[] = []', `      const x = ${this.fn(child)}(v[${k}], r)`)
      lines.push(`      if (r.length) prefix(iss, ${k}, r)`)
      if (optin === undefined) {
        lines.push(
          `      if (!present) { if (!r.length) iss.push({ code: 'invalid_type', expected: 'nonoptional', input: undefined, path: [${k}] }) }`,
          `      else out[${k}] = x`,
        )
      } else if (optout === 'optional') {
        lines.push(`      out[${k}] = x`)
      } else {
        lines.push(`      if (x !== undefined || present) out[${k}] = x`)
      }
      lines.push('    }', '  }')
    }
    if (catchall) {
      const known = this.constant(`new Set<string>(${JSON.stringify(keys)})`)
      lines.push(`  for (const key in v) if (!${known}.has(key) && key !== '__proto__') out[key] = v[key]`)
    }
    lines.push('  v = out', '}')
    return lines.join('\n')
  }

  private check(check: Node): string {
    const def = check._zod.def
    const issue = (fields: string) => `iss.push({ ${fields}, input: v, continue: ${!def.abort} })`
    let run: string
    switch (def.check) {
      case 'min_length':
        if (def.when) {
          // zod's default `when` for lengths: any non-nullish value with a length, even after a type issue.
          const min = Number(def.minimum)
          return [
            'if (!explicitlyAborted(iss) && v != null && v.length !== undefined) {',
            '  const n = iss.length',
            `  if (!(lengthOf(v, ${min}) >= ${min})) ${issue(`origin: lengthOrigin(v), code: 'too_small', minimum: ${min}, inclusive: true`)}`,
            '  if (iss.length !== n && !ab) ab = aborted(iss, n)',
            '}',
          ].join('\n')
        }
        throw unsupported('min_length without its default when')
      case 'string_format': {
        if (!def.pattern) throw unsupported(`string format ${def.format} without a pattern`)
        const re = this.constant(String(def.pattern))
        run = `if (!${re}.test(v)) ${issue(`origin: 'string', code: 'invalid_format', format: ${JSON.stringify(def.format)}, pattern: ${JSON.stringify(String(def.pattern))}`)}`
        break
      }
      case 'greater_than':
      case 'less_than': {
        if (typeof def.value !== 'number') throw unsupported('non-number bound')
        const small = def.check === 'greater_than'
        const op = small ? (def.inclusive ? '>=' : '>') : def.inclusive ? '<=' : '<'
        const origin = "typeof v === 'bigint' ? 'bigint' : typeof v === 'object' ? 'date' : 'number'"
        run = `if (!(v ${op} ${def.value})) ${issue(`origin: ${origin}, code: '${small ? 'too_small' : 'too_big'}', ${small ? 'minimum' : 'maximum'}: ${def.value}, inclusive: ${def.inclusive}`)}`
        break
      }
      case 'number_format': {
        if (def.format !== 'safeint') throw unsupported(`number format ${def.format}`)
        const range = `note: 'Integers must be within the safe integer range.', origin: 'int', inclusive: true`
        run = [
          "if (!Number.isInteger(v)) iss.push({ expected: 'int', format: 'safeint', code: 'invalid_type', continue: false, input: v })",
          `else if (!Number.isSafeInteger(v)) { if (v > 0) ${issue(`code: 'too_big', maximum: Number.MAX_SAFE_INTEGER, ${range}`)}; else ${issue(`code: 'too_small', minimum: Number.MIN_SAFE_INTEGER, ${range}`)} }`,
        ].join('\n')
        break
      }
      case 'custom': {
        if (def.fn !== Number.isFinite || def.when || def.path?.length || def.params)
          throw unsupported('refinements other than Number.isFinite')
        const message = def.error?.({ code: 'custom' })
        const text = typeof message === 'string' ? message : message?.message
        const own = text === undefined ? '' : `, message: ${JSON.stringify(text)}`
        run = `if (!Number.isFinite(v)) ${issue(`code: 'custom', path: []${own}`)}`
        break
      }
      default:
        throw unsupported(`check ${def.check}`)
    }
    if (def.when) throw unsupported(`a when on ${def.check}`)
    return [
      'if (!ab) {',
      '  const n = iss.length',
      `  ${run}`,
      '  if (iss.length !== n) ab = aborted(iss, n)',
      '}',
    ].join('\n')
  }
}

function unsupported(feature: string): Error {
  return new Error(
    `compiled validators: unsupported zod feature (${feature}); extend generate.ts or keep zod here`,
  )
}

/** The source of `validators.ts` (before formatting). */
export function generateValidators(): string {
  const e = new Emitter()
  const fields = MANIFEST_FIELD_NAMES.map((field) => {
    const schema = MANIFEST_FIELDS[field] as unknown as Node
    const { type } = schema._zod.def
    // parseManifest validates lists and maps member by member (a bad member is left out).
    const kind = type === 'array' ? 'array' : type === 'record' ? 'record' : 'value'
    const whole = `check: (v: unknown) => run(${e.fn(schema)}, v)`
    if (kind === 'value') return `  ${field}: { kind: '${kind}', ${whole} },`
    const member = kind === 'array' ? schema._zod.def.element : schema._zod.def.valueType
    return `  ${field}: { kind: '${kind}', ${whole}, member: (v: unknown) => run(${e.fn(member)}, v) },`
  })
  const json = e.fn(JsonValueSchema as unknown as Node)
  const state = e.fn(ReadingStateSchema as unknown as Node)
  const savedAt = e.fn(SAVED_AT as unknown as Node)
  return `/**
 * GENERATED by src/compiled/generate.ts from the zod schemas (\`pnpm --filter @spkg/manifest generate\`):
 * do not edit. Each validator gives exactly what the schema's \`safeParse\` gives (value, or zod's
 * issues with zod's messages), without zod; validators.property.test.ts checks it.
 */
/* biome-ignore-all lint: generated code */
import type { ManifestField } from '../fields'
import { aborted, explicitlyAborted, finalize, isObject, isRecordLike, lengthOf, lengthOrigin, prefix, type RawIssue, type Result, result } from './issues'

${e.header()}

${e.functions.join('\n\n')}

function run(parse: (v: any, iss: RawIssue[]) => any, value: unknown): Result {
  const iss: RawIssue[] = []
  return result(parse(value, iss), iss)
}

/** Each manifest field's schema (\`check\`); for lists and maps also their members' (\`member\`), which parseManifest checks one by one. */
export const MANIFEST_FIELD_CHECKS: Record<ManifestField, { kind: 'array' | 'record' | 'value'; check: (v: unknown) => Result; member?: (v: unknown) => Result }> = {
${fields.join('\n')}
}

/** \`JsonValueSchema.safeParse\`. */
export const checkJsonValue = (v: unknown): Result => run(${json}, v)
/** \`ReadingStateSchema.safeParse\`. */
export const checkReadingState = (v: unknown): Result => run(${state}, v)
/** The \`savedAt\` format of a reading state (\`z.iso.datetime({ offset: true })\`). */
export const checkSavedAt = (v: unknown): Result => run(${savedAt}, v)
`
}
