/**
 * Events and diagnostics of a minified story told with the author's names: a host that shows ids
 * (`spkg play`, a debugging reader) maps events through the names map; the engine maps its own
 * diagnostic events when the source carries the map, and `spkg validate` maps the checker's. Not
 * needed to play: a reader never shows ids.
 */
import type { Diagnostic, NamesMap } from '@spkg/manifest'
import type { StoryEvent } from '../run/types.ts'
import { type NamesDirection, namesLookup, renameId } from './state-names.ts'

/**
 * `event` with its ids (heading ids, link targets, decision keys, scenes) written with `to`'s
 * names. Option ids never change. Diagnostic events are left as they are: a run whose source
 * carries the names map (`source.names`) already tells them with the original names (see
 * {@link translateDiagnosticNames}). Returns a new event.
 *
 * @example
 * for (let e = await run.next(); e; e = await run.next()) log(translateEventNames(e, names, 'original'))
 */
export function translateEventNames(event: StoryEvent, names: NamesMap, to: NamesDirection): StoryEvent {
  const { ids } = namesLookup(names, to)
  const id = (v: string) => renameId(v, ids)
  switch (event.type) {
    case 'block': {
      const b = event.block
      return {
        ...event,
        block: {
          ...b,
          ...(b.id === undefined ? {} : { id: id(b.id) }),
          runs: b.runs.map((r) => (r.link === undefined ? r : { ...r, link: id(r.link) })),
        },
      }
    }
    case 'chosen':
      return {
        ...event,
        key: id(event.key),
        option: event.option.startsWith('>') ? id(event.option) : event.option,
      }
    case 'pause':
      return {
        ...event,
        key: id(event.key),
        // a thread's option (1.1) is offered as `<group>.<option>`: its group id may be renamed
        options: event.options.some((o) => o.id.includes('.'))
          ? event.options.map((o) => (o.id.includes('.') ? { ...o, id: threadOptionId(o.id, id) } : o))
          : event.options,
        links: event.links.map((l) => ({ ...l, target: id(l.target) })),
      }
    case 'part-entered':
      return event.scene === undefined ? event : { ...event, scene: id(event.scene) }
    default:
      return event
  }
}

function threadOptionId(v: string, id: (v: string) => string): string {
  const dot = v.lastIndexOf('.')
  return `${id(v.slice(0, dot))}${v.slice(dot)}`
}

/** Every short name of the map, whatever its kind: short names are unique across kinds. */
function allShort(names: NamesMap): Map<string, string> {
  return new Map([
    ...Object.entries(names.variables),
    ...Object.entries(names.functions ?? {}),
    ...Object.entries(names.ids ?? {}),
    ...Object.entries(names.sets ?? {}),
  ])
}

/**
 * 1.1: the set and item names a message about sets writes outside quotes: `Tools.rope`,
 * `Tools(rope, lamp)`, `a set of Tools`, `an item of Tools and Knots`, `Tools has no item …`,
 * `(it has rope, lamp)`, `its items are rope, lamp`. Only names of the map's `sets` are mapped there.
 */
function setWords(message: string, sets: ReadonlyMap<string, string>): string {
  const w = (x: string) => sets.get(x) ?? x
  const words = (s: string) => s.replace(WORD, w)
  return message
    .replace(/(?<![\w./-])([A-Za-z_]\w*)\.([A-Za-z_]\w*)(?![\w/-])/g, (m, a: string, b: string) =>
      sets.has(a) ? `${w(a)}.${w(b)}` : m,
    )
    .replace(/(?<![\w./-])([A-Za-z_]\w*)\(([^()]*)\)/g, (m, a: string, args: string) =>
      sets.has(a) ? `${w(a)}(${words(args)})` : m,
    )
    .replace(/\b(set|items|item) of ([A-Za-z_]\w*)/g, (_m, k: string, a: string) => `${k} of ${w(a)}`)
    .replace(/\bitem of \S+((?: and [A-Za-z_]\w*)+)/g, (m, more: string) => m.replace(more, words(more)))
    .replace(/^([A-Za-z_]\w*) has no item/, (_m, a: string) => `${w(a)} has no item`)
    .replace(/(\(it has |; its items are )([^)]*)/, (_m, k: string, list: string) => k + words(list))
}

/** A name in quoted code, not part of a path (`story/a.sty`) or of a longer word. */
const WORD = /(?<![\w./-])[A-Za-z_]\w*(?![\w./-])/g

/**
 * A diagnostic of a minified story told with the author's names: names inside quotes (`'a'`,
 * `'{set a += 1}'`, `'story/x.sty:b@1'`), called names (`c() takes 1 argument`), `#id`, the
 * `:id` of targets, and (1.1) the sets and items a message about sets names are mapped back. Its file stays; its line and
 * column are those of the minified file (comments and blank lines are gone), so they leave the
 * fields and the message says where in the minified file it was.
 *
 * @example
 * const shown = translateDiagnosticNames(diagnostic, names)
 */
export function translateDiagnosticNames(d: Diagnostic, names: NamesMap): Diagnostic {
  const all = allShort(names)
  const word = (w: string) => all.get(w) ?? w
  let message = (names.sets ? setWords(d.message, new Map(Object.entries(names.sets))) : d.message)
    .replace(/'[^']*'/g, (q) => q.replace(WORD, word))
    .replace(/(?<![\w./-])([A-Za-z_]\w*)\(/g, (_m, w: string) => `${word(w)}(`)
    .replace(/#([A-Za-z][A-Za-z0-9_-]*)/g, (_m, w: string) => `#${word(w)}`)
    .replace(/\.sty:([A-Za-z][A-Za-z0-9_-]*)/g, (_m, w: string) => `.sty:${word(w)}`)
  const { line, column, ...rest } = d
  if (line !== undefined)
    message += ` (minified file, line ${line}${column === undefined ? '' : ` column ${column}`})`
  return { ...rest, message }
}
