/**
 * The parser's lints: warnings about lines that read, but most likely not as the author meant
 * (`story/ink-syntax`, `story/dedented-body`, `story/id-before-jump`, `story/tag-text`). The line
 * parser calls them through `ParseContext.lint` at the very points it reads those lines, so the
 * diagnostics come in the same order as if it reported them itself. `parseStory` and
 * `parseModule` (the checker, the validator, the language server) parse with {@link PARSE_LINTS};
 * a run parses without them, so a player's bundle leaves this file and ink.ts out. Internal.
 */

import type { LintedLines, ParseLints } from './context.ts'
import { inkSyntax } from './ink.ts'
import { ID, posAt } from './scan.ts'

/** True when a blank line comes between line `k` and the content line before it (comments are skipped). */
function blankBefore(p: LintedLines, k: number): boolean {
  for (let j = k - 1; j >= 0; j--) {
    if (p.kinds[j] === 'blank') return true
    if (p.kinds[j] !== 'comment') return false
  }
  return false
}

const indentOf = (p: LintedLines, lineNo: number): number => p.lines[lineNo - 1]?.indent ?? 0

/**
 * An `[#id]` inside a label: one written before the jump, or in the middle of the text. Made on
 * first use: a bundler keeps a top-level `new RegExp` of a template, even unused.
 */
let labelIdRe: RegExp | undefined

/** The lints of `parseStory` and `parseModule`. */
export const PARSE_LINTS: ParseLints = {
  textLine(ctx, line) {
    const ink = inkSyntax(line.text, ctx.v11)
    if (ink) ctx.report('story/ink-syntax', ink.message, posAt(line, line.start + ink.at))
  },

  /**
   * A `- ` line right after a group (no blank line between), at the options' indentation or
   * less. Other `- ` lines are prose (a dialogue dash).
   */
  gather(p, line, group) {
    if (blankBefore(p, p.i)) return
    const first = group.options[0]
    if (!/^-(?:\s|$)/.test(line.text) || !first || line.indent > indentOf(p, first.pos.line)) return
    if (inkSyntax(line.text, p.ctx.v11)) return // reported with the paragraph's lines
    const rest = line.text.slice(1).trim()
    p.ctx.report(
      'story/ink-syntax',
      `'- ' starts an ink gather, and prints as text here; after the group the story goes on by itself: write the line without '- '${rest ? ` ('${rest.slice(0, 30)}')` : ''} at the options' indentation, after the group`,
      posAt(line, line.start),
    )
  },

  /**
   * The group that just ended (its options at `indent`) is followed, with no blank line, by lines
   * at the bullets' indentation or less and then by an option at the same indentation again. The
   * first of those lines most likely belongs to the option body above: as written it ends the
   * group and the options below make a second menu. Only after an option with a body: a line
   * after an option without one is a gather (ink's `-`), the way to write a weave's next step.
   */
  dedented(p, indent, parentIndent, options) {
    if (options[options.length - 1]!.body.length === 0) return
    const k = p.i
    const first = p.lines[k]
    if (!first || first.indent <= parentIndent || blankBefore(p, k)) return
    const firstKind = p.kinds[k]!
    if (firstKind !== 'text' && firstKind !== 'media' && firstKind !== 'command') return
    if (firstKind === 'text' && /^-(?:\s|$)/.test(first.text)) return // an ink gather (story/ink-syntax)
    for (let j = k; j < p.lines.length; j++) {
      const kind = p.kinds[j]!
      const l = p.lines[j]!
      if (kind === 'comment') continue
      if (kind === 'option') {
        if (l.indent !== indent) return
        const last = options[options.length - 1]!
        p.ctx.report(
          'story/dedented-body',
          `this line is not indented under the option on line ${last.pos.line}, so it ends the choice group: the options from line ${l.no} start a new menu, and the menu of line ${options[0]!.pos.line} offers only the ${options.length === 1 ? 'option' : `${options.length} options`} above it; indent the line under the option, or put a blank line and an anchor ([#id]) above line ${l.no} to start a new menu on purpose`,
          posAt(first, first.start),
        )
        return
      }
      if (l.indent <= parentIndent || (kind !== 'text' && kind !== 'media' && kind !== 'command')) return
      if (kind === 'command' && /^\{\s*(?:if|elif|else|end)\b/.test(l.text)) return
    }
  },

  tagWords(ctx, line, list, offset) {
    const word = /(?:^|\s)([^#\s]\S*)/.exec(list)
    if (word) {
      const w = word[1]!
      // a jump or an id written after the tags is lost with them: say where it goes
      const fix = w.startsWith('->')
        ? 'write the jump before the tags (and an option id after the jump)'
        : /^\[#[^\]]*\]$/.test(w)
          ? 'write the id before the tags'
          : "write \\# for a literal '#' in text"
      ctx.report(
        'story/tag-text',
        `'${w.slice(0, 20)}' follows the tags, so it is ignored; ${fix}`,
        posAt(line, offset + word.index + word[0].length - w.length),
      )
    }
  },

  mediaText(ctx, line, after, offset) {
    // Only tags may follow the closing ')': other text would be silently lost.
    const at = after.search(/\S/)
    const word = /^\S+/.exec(after.slice(at))![0]
    ctx.report(
      'story/tag-text',
      `'${word.slice(0, 20)}' follows a media block, so it is ignored; only tags (#loop) may follow its ')'`,
      posAt(line, offset + at),
    )
  },

  /**
   * The grammar reads an option line from its end (tags, `[#id]`, then the jump), so an `[#id]`
   * written before the jump, or inside the text, stays in the label: the menu shows it, and the
   * option keeps its positional id.
   */
  labelId(p, line, from, content, labelText, tags, jump, id) {
    labelIdRe ??= new RegExp(`\\[#(${ID})\\]`)
    const m = labelIdRe.exec(labelText)
    if (!m) return
    const head = content.slice(0, from)
    const text = (labelText.slice(0, m.index) + labelText.slice(m.index + m[0].length))
      .replace(/\s+/g, ' ')
      .trim()
    const to = jump ? ` -> ${jump.target === null ? (jump.done ? 'DONE' : 'END') : `#${jump.target}`}` : ''
    const fixed = `${head.trimEnd()} ${text}${to} [#${id ?? m[1]}]${tags.map((t) => ` #${t}`).join('')}`
    const at = line.start + from + m.index
    p.ctx.report(
      'story/id-before-jump',
      `'${m[0]}' is ${jump ? 'before the jump' : 'inside the label'}, so it is not the option's id: the menu shows it as text${
        id ? '' : ' and the option is saved by its position'
      }; write the id last, after the label${jump ? ' and the jump' : ''}: '${fixed}'`,
      posAt(line, at),
    )
  },

  inkAlt(ctx, mark, mode, items, pos) {
    const shown = mark === undefined ? '{a|b}' : `{${mark}a|b}`
    ctx.report(
      'story/ink-syntax',
      `ink's '${shown}' is written '{${mode} a|b}' in this language; write '{${mode} ${items.trim().slice(0, 24)}}'`,
      pos,
    )
  },
}
