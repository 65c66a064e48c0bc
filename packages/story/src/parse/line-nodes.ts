/**
 * The nodes that one line makes: heading, anchor, gate, jump and media (line kinds 3-6 and 8 of
 * section 1). Internal; called by the line parser (_parse-lines.ts).
 */

import type { JumpNode, MediaKind, Node } from '../ast.ts'
import { checkTarget } from './inline.ts'
import type { LineKind, LineParser } from './line-parser.ts'
import { ID, ID_ONLY, type Line, posAt, TARGET_RE, trailingId } from './scan.ts'

/** A whole jump: `-> #id`, `-> END` or `-> DONE` (1.1). */
const JUMP = new RegExp(`^->\\s*(?:#(${ID})|(END|DONE))$`)

const MEDIA_KINDS: Record<string, MediaKind> = {}
for (const e of 'png jpg jpeg gif webp avif svg'.split(' ')) MEDIA_KINDS[e] = 'image'
for (const e of 'ogg oga opus mp3 m4a wav flac'.split(' ')) MEDIA_KINDS[e] = 'audio'
for (const e of 'mp4 webm'.split(' ')) MEDIA_KINDS[e] = 'video'

/** The node of a heading, anchor, gate, jump or media line, or `undefined` after reporting why not. */
export function singleLineNode(p: LineParser, kind: LineKind, line: Line): Node | undefined {
  const t = line.text
  const pos = posAt(line, line.start)
  if (
    p.passage &&
    (kind === 'heading' ||
      kind === 'gate' ||
      kind === 'anchor' ||
      kind === 'jump' ||
      kind === 'tunnel' ||
      kind === 'tunnel-return' ||
      kind === 'thread')
  ) {
    p.notInPassage(kind === 'tunnel-return' ? "'->->'" : `a ${kind}`, pos)
    return undefined
  }
  switch (kind) {
    case 'heading': {
      const level = /^#+/.exec(t)![0].length
      const split = p.splitTagsAt(line, t.slice(level), line.start + level)
      let content = split.content
      let id: string | undefined
      const m = trailingId(content)
      if (m) {
        const idPos = posAt(line, line.start + level + m.bracket)
        if (m.valid) {
          id = m.id
          p.declareId(id, 'heading', idPos)
        } else p.badId(m.id, idPos)
        content = content.slice(0, m.at)
      }
      p.headingCount++
      const from = line.start + level + (content.length - content.trimStart().length)
      const label = p.label(line, from, line.start + level + content.length, 'a heading')
      return {
        kind: 'heading',
        pos,
        level,
        id: id ?? `h${p.headingCount}`,
        explicitId: id !== undefined,
        label,
        tags: split.tags,
        silent: content.trim() === '',
      }
    }
    case 'anchor': {
      const id = t.slice(2, -1)
      if (!ID_ONLY.test(id)) {
        p.ctx.report(
          'story/bad-expression',
          `'${id}' is not an id (a letter, then letters, digits, _ or -)`,
          pos,
        )
        return undefined
      }
      p.declareId(id, 'anchor', pos)
      return { kind: 'anchor', pos, id }
    }
    case 'gate': {
      const target = t.slice(2, -2).trim()
      const tpos = posAt(line, line.start + t.indexOf(target, 2))
      if (!TARGET_RE.test(target) && !target.includes('..') && !target.startsWith('/')) {
        p.ctx.report(
          'story/bad-target',
          `'${target}' is not a part target (a path ending .sty, optionally :id)${/^[A-Za-z0-9_-]+$/.test(target) ? `; did you mean '${target}.sty'?` : ''}`,
          tpos,
        )
        return undefined
      }
      if (!checkTarget(p.ctx, target, tpos)) return undefined
      return { kind: 'gate', pos, target, targetPos: tpos }
    }
    case 'jump':
      return jumpNode(p, line, line.start)
    case 'tunnel':
    case 'tunnel-return':
    case 'thread':
      return flowNode(p, kind, line)
    case 'media': {
      const m = /^!\[([^\]]*)\]\(([^)]*)\)/.exec(t)!
      const after = ` ${t.slice(m[0].length)}`
      const rest = p.splitTagsAt(line, after, line.start + m[0].length - 1)
      // only tags may follow the closing ')': other text would be silently lost (story/tag-text)
      if (rest.content.trim()) p.ctx.lint?.mediaText(p.ctx, line, after, line.start + m[0].length - 1)
      const path = m[2]!.trim()
      // the path's first character: after `![alt](` and any blanks
      const ppos = posAt(line, line.start + m[1]!.length + 4 + (m[2]!.length - m[2]!.trimStart().length))
      const ext = /^[A-Za-z0-9]+$/.exec(path.slice(path.lastIndexOf('.') + 1))?.[0].toLowerCase()
      const media = ext ? MEDIA_KINDS[ext] : undefined
      if (/^[a-z][a-z0-9+.-]*:/i.test(path))
        p.ctx.report(
          'story/bad-path',
          `media path '${path}' has a URL scheme; media must be inside the archive`,
          ppos,
        )
      else if (path.startsWith('/'))
        p.ctx.report(
          'story/bad-path',
          `media path '${path}' starts with / (paths are archive-relative)`,
          ppos,
        )
      else if (path.split('/').includes('..'))
        p.ctx.report('story/bad-path', `media path '${path}' escapes the archive ('..')`, ppos)
      else if (!media)
        p.ctx.report(
          'story/bad-path',
          `media path '${path}' has no known image, audio or video extension`,
          ppos,
        )
      else
        return {
          kind: 'media',
          pos,
          path,
          pathPos: ppos,
          alt: m[1]!.replace(/\\([!-/:-@[-`{-~])/g, '$1'),
          media,
          tags: rest.tags,
        }
      return undefined
    }
  }
  return undefined
}

/** `#id`, or a part target `part.sty[:id]`, alone (a tunnel's, a thread's or a return's target). */
const FLOW_TARGET = new RegExp(`^(?:#(${ID})|([^\\s#][^\\s]*))$`)

/**
 * The 1.1 flow lines: a tunnel call `-> #id ->` / `-> part.sty[:id] ->`, a return `->->` /
 * `->-> #id` / `->-> part.sty[:id]`, a thread `<- #id`.
 */
function flowNode(p: LineParser, kind: 'tunnel' | 'tunnel-return' | 'thread', line: Line): Node | undefined {
  const t = line.text
  const pos = posAt(line, line.start)
  const from = kind === 'tunnel-return' ? 4 : 2
  const to = kind === 'tunnel' ? t.length - 2 : t.length
  const inner = t.slice(from, to)
  const written = inner.trim()
  const at = line.start + from + (inner.length - inner.trimStart().length)
  const targetPos = posAt(line, at)
  const shape =
    kind === 'tunnel'
      ? "a tunnel is written '-> #id ->' or '-> part.sty:id ->'"
      : kind === 'thread'
        ? "a thread is written '<- #id' (write '\\<-' for text that starts with '<-')"
        : "a return is written '->->', '->-> #id' or '->-> part.sty:id'"
  if (kind === 'tunnel-return' && written === '') return { kind: 'tunnel-return', pos }
  const m = FLOW_TARGET.exec(written)
  if (!m || (kind !== 'thread' && m[2] === 'END')) {
    p.ctx.report('story/bad-expression', shape, written === '' ? pos : targetPos)
    return undefined
  }
  if (m[1] !== undefined) {
    // a same-file id: checked with the jumps (story/unknown-id, story/not-a-target)
    p.jumps.push({ kind: 'jump', pos: targetPos, target: m[1] })
    if (kind === 'tunnel') return { kind, pos, target: m[1], targetPos, part: false }
    if (kind === 'thread') return { kind, pos, target: m[1], targetPos }
    return { kind, pos, target: m[1], targetPos, part: false }
  }
  const target = m[2]!
  if (!TARGET_RE.test(target) && !target.includes('..') && !target.startsWith('/')) {
    p.ctx.report(
      'story/bad-target',
      `'${target}' is not a target (#id, or a path ending .sty, optionally :id)${/^[A-Za-z0-9_-]+$/.test(target) ? `; did you mean '#${target}' or '${target}.sty'?` : ''}`,
      targetPos,
    )
    return undefined
  }
  if (!checkTarget(p.ctx, target, targetPos)) return undefined
  if (kind === 'thread') {
    p.ctx.report(
      'story/bad-target',
      `a thread gathers options from a section of its own part ('<- #id'); '${target}' is another part (threads across parts are not in 1.1): tunnel there with '-> ${target} ->', or move the section into this part`,
      targetPos,
    )
    return undefined
  }
  return { kind, pos, target, targetPos, part: true }
}

/** A jump `-> #id` or `-> END` from `at` to `end` of the line (also the end of an option line). */
export function jumpNode(p: LineParser, line: Line, at: number, end = line.raw.length): JumpNode | undefined {
  const t = line.raw.slice(at, end).trimEnd()
  const m = JUMP.exec(t)
  if (!m) {
    // `-> hall` and `-> end`: the id without its `#`, END in the wrong case
    // ink's `-> knot.stitch` is `-> #stitch` (an id is unique in its file)
    const word = /^->\s*(?:[A-Za-z][A-Za-z0-9_-]{0,63}\.)?([A-Za-z][A-Za-z0-9_-]{0,63})$/.exec(t)?.[1]
    const upper = word?.toUpperCase()
    const meant =
      word === undefined ? '' : upper === 'END' || (upper === 'DONE' && p.ctx.v11) ? upper : `#${word}`
    const tunnel = !p.ctx.v11 && (t.startsWith('->->') || (t.length > 4 && t.endsWith('->')))
    p.ctx.report(
      'story/bad-expression',
      tunnel
        ? "a jump is written '-> #id' or '-> END'; tunnels ('-> #id ->' and '->->') are story language 1.1: set story_lang to 1.1"
        : `a jump is written '-> #id' or '-> END'${meant ? `; did you mean '-> ${meant}'?` : ''}`,
      posAt(line, at),
    )
    return undefined
  }
  const node: JumpNode = {
    kind: 'jump',
    pos: posAt(line, at + t.indexOf(m[1] ? '#' : m[2]!)),
    target: m[1] ?? null,
  }
  if (m[2] === 'DONE') {
    if (!p.ctx.v11) {
      p.ctx.report(
        'story/bad-expression',
        "'-> DONE' (pause on the options threads gathered) is story language 1.1: set story_lang to 1.1, or end the story with '-> END'",
        node.pos,
      )
      return undefined
    }
    node.done = true
  }
  p.jumps.push(node)
  return node
}
