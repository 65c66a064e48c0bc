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
import { z } from 'zod'
import { MANIFEST_FIELD_NAMES } from '../fields'
import { JsonValueSchema } from '../json-value-schema'
import { NamesMapSchema } from '../names-map-schema'
import { ReadingStateSchema, SAVED_AT } from '../reading-state-schema'
import { MANIFEST_FIELDS } from '../schema'

// zod's internals, as far as this compiler reads them.
// biome-ignore lint/suspicious/noExplicitAny: zod's internal definitions are untyped here
type Def = Record<string, any>
type Node = { _zod: { def: Def; traits: Set<string>; optin?: string; optout?: string; innerType?: Node } }

class Emitter {
  readonly lines: string[] = []
  private readonly names = new Map<unknown, string>()
  private readonly byCode = new Map<string, string>()
  private readonly used = new Set<string>()

  /** The name of a constant holding `code` (one per distinct code). */
  private define(code: string): string {
    const known = this.byCode.get(code)
    if (known) return known
    const name = `p${this.byCode.size}`
    this.byCode.set(code, name)
    this.lines.push(`const ${name}: Parser = ${code}`)
    return name
  }

  /** Marks a building block of parsers.ts as used (for the import list). */
  private use(name: string): string {
    this.used.add(name)
    return name
  }

  imports(): string[] {
    return [...this.used].sort()
  }

  /** The name of the parser of `schema` (schemas that compile alike share one). */
  fn(schema: Node): string {
    const key = schema._zod.def.type === 'lazy' ? schema._zod.def : schema
    const known = this.names.get(key)
    if (known) return known
    if (schema._zod.def.type === 'lazy') {
      // A lazy schema may refer to itself: named before its inner parser, which is looked up on use.
      const name = `p${this.byCode.size}`
      this.byCode.set(`lazy ${name}`, name)
      this.names.set(key, name)
      const slot = this.lines.length
      this.lines.push('')
      const inner = this.fn(schema._zod.innerType as Node)
      this.lines[slot] = `const ${name}: Parser = ${this.use('lazy')}(() => ${inner})`
      return name
    }
    const name = this.define(this.code(schema))
    this.names.set(key, name)
    return name
  }

  private code(schema: Node): string {
    const def = schema._zod.def
    const checks: Node[] = schema._zod.traits.has('$ZodCheck')
      ? [schema, ...((def.checks as Node[]) ?? [])]
      : ((def.checks as Node[]) ?? [])
    const parse = this.parse(schema)
    if (checks.length === 0) return parse
    return `${this.use('checked')}(${parse}, [${checks.map((c) => this.check(c)).join(', ')}])`
  }

  private parse(schema: Node): string {
    const def = schema._zod.def
    switch (def.type) {
      case 'string':
      case 'number':
      case 'boolean':
        if (def.coerce) throw unsupported('coerce')
        return this.use(def.type)
      case 'null':
        return this.use('nul')
      case 'unknown':
        return this.use('unknown')
      case 'enum':
      case 'literal': {
        const values: unknown[] = def.type === 'enum' ? Object.values(def.entries) : def.values
        if (values.some((x) => typeof x !== 'string' && typeof x !== 'number' && typeof x !== 'boolean'))
          throw unsupported('enum or literal values other than strings, numbers and booleans')
        return `${this.use('oneOf')}(${JSON.stringify(values)})`
      }
      case 'optional': {
        const inner = def.innerType as Node
        if (inner._zod.optin === 'defaulted') throw unsupported('optional default')
        return `${this.use('optional')}(${this.fn(inner)})`
      }
      case 'array':
        return `${this.use('array')}(${this.fn(def.element)})`
      case 'record': {
        const key = def.keyType as Node
        if (key._zod.def.type !== 'string' || key._zod.def.checks?.length || def.mode)
          throw unsupported('record keys other than z.string()')
        return `${this.use('record')}(${this.fn(def.valueType)})`
      }
      case 'object':
        return this.object(def)
      case 'union': {
        if (def.inclusive === false || def.discriminator)
          throw unsupported('exclusive or discriminated union')
        const options = (def.options as Node[]).map((o) => this.fn(o))
        if (options.length === 1) return options[0]!
        return `${this.use('union')}([${options.join(', ')}])`
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
    const props = Object.keys(shape).map((key) => {
      if (key === '__proto__') throw unsupported('a __proto__ property')
      const child = shape[key]!
      const { optin, optout } = child._zod
      if (optin === 'defaulted') throw unsupported('defaulted property')
      // The Presence of parsers.ts: 0 required, 1 optional, 2 maybe.
      const presence = optin === undefined ? 0 : optout === 'optional' ? 1 : 2
      return `[${JSON.stringify(key)}, ${this.fn(child)}, ${presence}]`
    })
    return `${this.use('object')}([${props.join(', ')}], ${catchall !== undefined})`
  }

  private check(check: Node): string {
    const def = check._zod.def
    const abort = def.abort === true
    switch (def.check) {
      case 'min_length':
        // zod's default `when` for lengths: any non-nullish value with a length, even after a type issue.
        if (!def.when) throw unsupported('min_length without its default when')
        return `${this.use('minLength')}(${Number(def.minimum)}, ${abort})`
      case 'string_format':
        if (!def.pattern) throw unsupported(`string format ${def.format} without a pattern`)
        if (def.when) throw unsupported(`a when on ${def.check}`)
        return `${this.use('pattern')}(${String(def.pattern)}, ${JSON.stringify(def.format)}, ${abort})`
      case 'greater_than':
      case 'less_than':
        if (typeof def.value !== 'number') throw unsupported('non-number bound')
        if (def.when) throw unsupported(`a when on ${def.check}`)
        return `${this.use('bound')}(${def.check === 'greater_than'}, ${def.value}, ${def.inclusive === true}, ${abort})`
      case 'number_format':
        if (def.format !== 'safeint') throw unsupported(`number format ${def.format}`)
        if (def.when) throw unsupported(`a when on ${def.check}`)
        return `${this.use('safeInt')}(${abort})`
      case 'custom': {
        if (def.fn !== Number.isFinite || def.when || def.path?.length || def.params)
          throw unsupported('refinements other than Number.isFinite')
        const message = def.error?.({ code: 'custom' })
        const text = typeof message === 'string' ? message : message?.message
        return `${this.use('finite')}(${text === undefined ? 'undefined' : JSON.stringify(text)}, ${abort})`
      }
      default:
        throw unsupported(`check ${def.check}`)
    }
  }
}

function unsupported(feature: string): Error {
  return new Error(
    `compiled validators: unsupported zod feature (${feature}); extend generate.ts or keep zod here`,
  )
}

/** The zod release the compiled checks were generated from and compared with (its \`major.minor.patch\`). */
export const zodVersion = (): string =>
  `${z.core.version.major}.${z.core.version.minor}.${z.core.version.patch}`

/** The source of `validators.ts` (before formatting). */
export function generateValidators(): string {
  const e = new Emitter()
  const fields = MANIFEST_FIELD_NAMES.map((field) => {
    const schema = MANIFEST_FIELDS[field] as unknown as Node
    const { type } = schema._zod.def
    // parseManifest validates lists and maps member by member (a bad member is left out).
    const kind = type === 'array' ? 'array' : type === 'record' ? 'record' : 'value'
    if (kind === 'value') return `  ${field}: field('value', ${e.fn(schema)}),`
    const member = kind === 'array' ? schema._zod.def.element : schema._zod.def.valueType
    return `  ${field}: field('${kind}', ${e.fn(schema)}, ${e.fn(member)}),`
  })
  const json = e.fn(JsonValueSchema as unknown as Node)
  const state = e.fn(ReadingStateSchema as unknown as Node)
  const savedAt = e.fn(SAVED_AT as unknown as Node)
  const namesMap = e.fn(NamesMapSchema as unknown as Node)
  // Biome puts them in its order when the file is written (scripts/generate.ts).
  const names = [...e.imports(), 'field', 'type FieldCheck', 'type Parser', 'validator']
  // Every call is pure, so a bundle that uses none of these checks drops them all.
  const calls = new RegExp(`\\b(${[...e.imports(), 'validator', 'field'].join('|')})\\(`, 'g')
  const pure = (code: string) => code.replace(calls, '/* @__PURE__ */ $1(')
  return `/**
 * GENERATED by src/compiled/generate.ts from the zod schemas, zod ${zodVersion()}
 * (\`pnpm --filter @spkg/manifest generate\`): do not edit. Each validator gives exactly what the
 * schema's \`safeParse\` gives (value, or zod's issues with zod's messages), without zod;
 * validators.property.test.ts checks it.
 */
import type { ManifestField } from '../fields'
import { ${names.join(', ')} } from './parsers'

${pure(e.lines.join('\n'))}

/** Each manifest field's check. */
export const MANIFEST_FIELD_CHECKS: Record<ManifestField, FieldCheck> = {
${pure(fields.join('\n'))}
}

/** \`JsonValueSchema.safeParse\`. */
export const checkJsonValue = /* @__PURE__ */ validator(${json})
/** \`ReadingStateSchema.safeParse\`. */
export const checkReadingState = /* @__PURE__ */ validator(${state})
/** The \`savedAt\` format of a reading state (\`z.iso.datetime({ offset: true })\`). */
export const checkSavedAt = /* @__PURE__ */ validator(${savedAt})
/** \`NamesMapSchema.safeParse\`. */
export const checkNamesMap = /* @__PURE__ */ validator(${namesMap})
`
}
