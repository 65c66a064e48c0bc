/**
 * `--choose 1,map,>story/0003-forest.sty:edge`: the answers given on the command line, one per
 * pause in order. An item is an option id, or `>` and a link's resolved archive target.
 */

import type { StoryAnswer } from '@spkg/story'
import { UsageError } from '../cli-types'

const ID = /^[\p{L}\p{N}_-]{1,64}$/u
const TARGET = /^[^\s,>]+\.sty(?::[\p{L}\p{N}_-]+)?$/u

/**
 * Parses a `--choose` value into answers.
 *
 * @throws UsageError for an empty item or one that is neither an option id nor `>target`
 */
export function parseChooseList(value: string): StoryAnswer[] {
  if (value.trim() === '') return []
  return value.split(',').map((raw, i) => {
    const item = raw.trim()
    if (item.startsWith('>')) {
      const target = item.slice(1).trim()
      if (!TARGET.test(target) || target.startsWith('/') || target.split('/').includes('..'))
        throw new UsageError(
          `--choose item ${i + 1} ('${item}') is not a link target such as '>story/0003-forest.sty:edge'`,
        )
      return { link: target }
    }
    if (!ID.test(item))
      throw new UsageError(
        `--choose item ${i + 1} ('${item}') is not an option id (such as '1' or 'map') or '>' and a part`,
      )
    return { option: item }
  })
}

/** The `--choose` form of an answer (`map`, `>story/0003-forest.sty:edge`). */
export function formatAnswer(answer: StoryAnswer): string {
  return 'link' in answer ? `>${answer.link}` : answer.option
}
