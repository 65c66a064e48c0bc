/**
 * Resolving the paths a story names: part targets (`path[:id]`, section 3) and module names
 * (`{use combat}`, section 8). Shared by the checker, the interpreter and the reader.
 */

/** A resolved target: the archive path of the part and the optional id inside it. */
export interface ResolvedTarget {
  /** Archive-relative path of the part (`story/0003-forest.sty`). */
  part: string
  /** The id after `:`, if any (`edge`). */
  id?: string
}

/**
 * Resolves a gate or link target written in the part `from`. A path containing `/` is
 * archive-relative; any other path is relative to the directory of `from`.
 *
 * @example
 * ```ts
 * resolveTarget('story/0002-road.sty', '0003-forest.sty:edge') // { part: 'story/0003-forest.sty', id: 'edge' }
 * resolveTarget('story/0002-road.sty', 'epilogue/end.sty') // { part: 'epilogue/end.sty' }
 * ```
 */
export function resolveTarget(from: string, target: string): ResolvedTarget {
  const colon = target.lastIndexOf(':')
  const path = colon < 0 ? target : target.slice(0, colon)
  const id = colon < 0 ? undefined : target.slice(colon + 1)
  const slash = from.lastIndexOf('/')
  const part = path.includes('/') || slash < 0 ? path : `${from.slice(0, slash + 1)}${path}`
  return id === undefined ? { part } : { part, id }
}

/** Options of {@link resolveModulePath}. */
export interface ModulePathOptions {
  /** A flat archive keeps modules at its root (clarification 10). @default false */
  flat?: boolean
}

/**
 * The archive path a `{use …}` names first: a bare name `combat` means `extensions/combat.xty`
 * (`combat.xty` in a flat archive); a path ending `.xty` is taken as written. See
 * {@link modulePathCandidates} for the fallback the interpreter also tries.
 *
 * @example
 * ```ts
 * resolveModulePath('combat') // 'extensions/combat.xty'
 * resolveModulePath('extensions/combat.xty') // 'extensions/combat.xty'
 * ```
 */
export function resolveModulePath(name: string, options: ModulePathOptions = {}): string {
  if (name.endsWith('.xty')) return name
  return options.flat ? `${name}.xty` : `extensions/${name}.xty`
}

/**
 * Every archive path a `{use …}` may name, most likely first: a path ending `.xty` as written;
 * otherwise `extensions/<name>.xty`, then `<name>.xty` at the root (flat archives first).
 *
 * @example
 * ```ts
 * modulePathCandidates('combat') // ['extensions/combat.xty', 'combat.xty']
 * ```
 */
export function modulePathCandidates(name: string, options: ModulePathOptions = {}): string[] {
  if (name.endsWith('.xty')) return [name]
  return options.flat ? [`${name}.xty`, `extensions/${name}.xty`] : [`extensions/${name}.xty`, `${name}.xty`]
}
