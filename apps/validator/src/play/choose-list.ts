/**
 * `--choose 1,map,>story/0003-forest.sty:edge`: the answers given on the command line, one per
 * pause in order, read exactly as the interactive prompt reads a line. An item is a menu number
 * (the `1)`, `2)` the menu shows: options first, then links), an option id (`map`; a thread's
 * option, 1.1, as `rumours.road` or `gossip@1.2`), `=` and an
 * option id (`=2`: the option whose id is `2`, where `2` alone is a menu number), or `>` and a
 * link's resolved archive target.
 */

import type { PauseEvent, StoryAnswer } from '@spkg/story'
import { UsageError } from '../cli-types'

/** One `--choose` item, before it meets its pause. */
export type ChooseItem = { menu: number } | { option: string } | { link: string }

const MENU = /^\d{1,9}$/
/** An option id; a thread's option (1.1) is offered as `<group>.<option>`. */
const ID = /^[\p{L}\p{N}_-]{1,64}(?:@\d{1,9})?(?:\.[\p{L}\p{N}_-]{1,64})?$/u
const TARGET = /^[^\s,>]+\.sty(?::[\p{L}\p{N}_-]+)?$/u

/**
 * Reads one item; `index` (1-based) names it in the error.
 *
 * @throws UsageError for an empty item or one that is neither a number, an option id nor `>target`
 */
export function parseChooseItem(raw: string, index = 1): ChooseItem {
  const item = raw.trim()
  if (item.startsWith('>')) {
    const target = item.slice(1).trim()
    if (!TARGET.test(target) || target.startsWith('/') || target.split('/').includes('..'))
      throw new UsageError(
        `--choose item ${index} ('${item}') is not a link target such as '>story/0003-forest.sty:edge'`,
      )
    return { link: target }
  }
  if (item.startsWith('=')) {
    const id = item.slice(1).trim()
    if (!ID.test(id))
      throw new UsageError(`--choose item ${index} ('${item}') is not '=' and an option id such as '=2'`)
    return { option: id }
  }
  if (MENU.test(item)) return { menu: Number(item) }
  if (!ID.test(item))
    throw new UsageError(
      `--choose item ${index} ('${item}') is not a menu number (such as '1'), an option id (such as 'map' or '=2') or '>' and a part`,
    )
  return { option: item }
}

/**
 * Parses a `--choose` value into items.
 *
 * @throws UsageError for an empty item or one that is neither a number, an option id nor `>target`
 */
export function parseChooseList(value: string): ChooseItem[] {
  if (value.trim() === '') return []
  return value.split(',').map((raw, i) => parseChooseItem(raw, i + 1))
}

/**
 * The answer `item` gives at `pause`, or `undefined` when the pause does not offer it: a menu
 * number picks the n-th option, then the links numbered on; an id must be an offered option's;
 * a link target must be a live link's.
 */
export function resolveChoice(item: ChooseItem, pause: PauseEvent): StoryAnswer | undefined {
  if ('menu' in item) {
    const option = pause.options[item.menu - 1]
    if (option) return { option: option.id }
    const link = pause.links[item.menu - 1 - pause.options.length]
    return link ? { link: link.target } : undefined
  }
  if ('option' in item) return pause.options.some((o) => o.id === item.option) ? item : undefined
  return pause.links.some((l) => l.target === item.link) ? item : undefined
}

/** An item as written on the command line (`2`, `map`, `=2`, `>story/0003-forest.sty:edge`). */
export function formatItem(item: ChooseItem): string {
  if ('menu' in item) return String(item.menu)
  if ('link' in item) return `>${item.link}`
  return MENU.test(item.option) ? `=${item.option}` : item.option
}

/**
 * An answer given at `pause`, in the `--choose` form that replays it: a named option by its id
 * (`map`), an option with a positional id by its menu number (ids such as `3` read as menu
 * numbers), a link by `>target`.
 */
export function formatAnswer(answer: StoryAnswer, pause: PauseEvent): string {
  if ('link' in answer) return `>${answer.link}`
  if (!MENU.test(answer.option)) return answer.option
  const at = pause.options.findIndex((o) => o.id === answer.option)
  return at >= 0 ? String(at + 1) : answer.option
}

/** What `--choose` and the prompt accept at `pause`, for a refusal message. */
export function describeChoices(pause: PauseEvent): string {
  const count = pause.options.length + pause.links.length
  if (count === 0) return 'nothing (the pause offers no option)'
  const out = [count === 1 ? '1 (the menu number)' : `1-${count} (the menu numbers)`]
  // An id of digits is named with '=' (a bare number is a menu number), and only where its menu
  // number is another: a positional id in its place is already its menu number.
  const ids = pause.options.flatMap((o, i) =>
    !MENU.test(o.id) ? [o.id] : Number(o.id) === i + 1 ? [] : [`=${o.id}`],
  )
  if (ids.length) out.push(`an option id (${ids.join(', ')})`)
  if (pause.links.length) out.push(`a link target (${pause.links.map((l) => `>${l.target}`).join(', ')})`)
  return out.join(', ')
}
