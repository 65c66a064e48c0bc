/**
 * Schemas built on first use. Building the exported zod schemas at import left about 1 MB of
 * young heap alive (zod alone: about 0.15 MB), so the first scavenge of a fresh process, which
 * tends to fall inside the first package peek, took several times longer; a peek of a canonical
 * manifest never needs them (`fast-fields.ts`).
 *
 * {@link lazySchema} returns a Proxy that is itself the zod schema once built: on the first
 * operation of any kind (a property read, `in`, `instanceof`, `Object.getPrototypeOf`...) zod's own
 * constructor code runs with the Proxy as the instance, exactly as `base.meta(meta)` would run it
 * on a new object. Every closure zod keeps (its parse functions, its JSON Schema processor) and
 * every registry entry (`.meta()`, ids for `z.toJSONSchema`) then refers to the Proxy, never to a
 * second object, so composing it (`z.object({ a: AuthorSchema })`, `.optional()`, `z.toJSONSchema`)
 * behaves as with an eagerly built schema. Every trap then acts on the Proxy's own target, which
 * holds the instance's properties, so no Proxy invariant can be broken.
 */
import { z } from 'zod'

type Internals = {
  constr: { init(inst: object, def: unknown): void }
  def: unknown
  parent?: object
  deferred?: Array<() => void> | undefined
}

/**
 * `build().meta(meta)` (or `build()` without `meta`), built on first use.
 *
 * @example
 * export const PartSchema = lazySchema(() => z.looseObject({ file: z.string() }), { id: 'Part' })
 */
export function lazySchema<T extends z.ZodType>(build: () => T, meta?: z.GlobalMeta): T {
  const target: object = {}
  let state: 'lazy' | 'building' | 'built' = 'lazy'
  // Each trap builds the schema first, then does what it would do on a plain object.
  const built =
    <A extends unknown[], R>(op: (...args: A) => R) =>
    (...args: A): R => {
      if (state === 'lazy') ensure()
      return op(...args)
    }
  const proxy = new Proxy(target, {
    // The one zod reads on every parse, kept free of the generic wrapper.
    get(t, key, receiver) {
      if (state === 'lazy') ensure()
      return Reflect.get(t, key, receiver)
    },
    set: built(Reflect.set),
    has: built(Reflect.has),
    deleteProperty: built(Reflect.deleteProperty),
    defineProperty: built(Reflect.defineProperty),
    getOwnPropertyDescriptor: built(Reflect.getOwnPropertyDescriptor),
    ownKeys: built(Reflect.ownKeys),
    getPrototypeOf: built(Reflect.getPrototypeOf),
    setPrototypeOf: built(Reflect.setPrototypeOf),
    isExtensible: built(Reflect.isExtensible),
    preventExtensions: built(Reflect.preventExtensions),
  }) as T
  function ensure(): void {
    state = 'building'
    let base: T
    try {
      base = build()
    } catch (e) {
      state = 'lazy'
      throw e
    }
    try {
      const internals = base._zod as unknown as Internals
      // What `new constr(def)` does (zod's $constructor), with the Proxy as `this`.
      Object.setPrototypeOf(target, Object.getPrototypeOf(base))
      internals.constr.init(proxy, internals.def)
      const own = proxy._zod as unknown as Internals
      const deferred = own.deferred
      if (deferred) {
        for (const fn of deferred) fn()
        own.deferred = undefined
      }
      ;(z.config() as { postProcessor?: (inst: object) => void }).postProcessor?.(proxy)
      // What `.meta(meta)` adds: the clone's parent, and its registry entry.
      if (meta) {
        own.parent = base
        z.globalRegistry.add(proxy, meta)
      }
    } catch {
      // A zod whose internals differ from the ones above (a later release): fall back to
      // delegating to the built schema, so parsing still works; only JSON Schema ids of this
      // schema may then be missing.
      delegate(base)
    }
    state = 'built'
  }
  /** Turns the Proxy into a plain stand-in whose prototype is the built schema. */
  function delegate(base: T): void {
    for (const key of Reflect.ownKeys(target)) Reflect.deleteProperty(target, key)
    Object.setPrototypeOf(target, base)
    if (meta)
      try {
        z.globalRegistry.add(proxy, meta)
      } catch {}
  }
  return proxy
}

/**
 * An object of `keys` whose values come from one `build()`, run on the first read of any of them.
 * The properties are enumerable accessors until then (so `Object.keys` builds nothing) and plain
 * data properties after.
 */
export function lazyRecord<T extends Record<string, unknown>>(
  keys: readonly (keyof T & string)[],
  build: () => T,
): T {
  const out = {} as T
  const fill = (): T => {
    const built = build()
    for (const key of keys)
      Object.defineProperty(out, key, {
        value: built[key],
        writable: true,
        enumerable: true,
        configurable: true,
      })
    return built
  }
  for (const key of keys)
    Object.defineProperty(out, key, {
      get: () => fill()[key],
      set: (value: unknown) => {
        fill()
        ;(out as Record<string, unknown>)[key] = value
      },
      enumerable: true,
      configurable: true,
    })
  return out
}
