/**
 * How `spkg play` prints the event stream: `--format json` writes one JSON object per line
 * (plain block text, pause options and links, chosen options, part entries, diagnostics with code,
 * line and column, the end); the text format is a readable transcript, styled on a TTY.
 */
import type { Diagnostic } from '@spkg/manifest'
import type { Block, PauseEvent, StoryEvent } from '@spkg/story'
import { formatDiagnosticLine, printableText as safe } from '../report'

/** One event as the JSON object `--format json` prints (without the newline). */
export function eventToJson(event: StoryEvent): Record<string, unknown> {
  const replay = event.replay ? { replay: true } : {}
  switch (event.type) {
    case 'block': {
      const b = event.block
      const links = b.runs.filter((r) => r.link !== undefined).map((r) => ({ text: r.text, target: r.link }))
      return {
        type: 'block',
        index: event.index,
        kind: b.kind,
        ...(b.level !== undefined ? { level: b.level } : {}),
        ...(b.id !== undefined ? { id: b.id } : {}),
        ...(b.media !== undefined ? { media: b.media, path: b.path } : {}),
        text: b.text,
        tags: b.tags,
        ...(links.length ? { links } : {}),
        ...(b.seen ? { seen: true } : {}),
        ...replay,
      }
    }
    case 'pause':
      return {
        type: 'pause',
        key: event.key,
        options: event.options.map((o) => ({
          id: o.id,
          text: o.text,
          tags: o.tags,
          ...(o.sticky ? { sticky: true } : {}),
        })),
        links: event.links.map((l) => ({ text: l.text, target: l.target })),
        ...replay,
      }
    case 'chosen':
      return {
        type: 'chosen',
        key: event.key,
        option: event.option,
        text: event.text,
        tags: event.tags,
        ...(event.auto ? { auto: true } : {}),
        ...replay,
      }
    case 'part-entered':
      return {
        type: 'part-entered',
        part: event.part,
        ...(event.scene !== undefined ? { scene: event.scene } : {}),
        tags: event.tags,
        ...replay,
      }
    case 'diagnostic':
      return { type: 'diagnostic', ...diagnosticToJson(event.diagnostic), ...replay }
    case 'end':
      return { type: 'end', ...replay }
  }
}

/** A diagnostic with the fields in a stable order (code, severity, path, line, column, message). */
export function diagnosticToJson(d: Diagnostic): Record<string, unknown> {
  return {
    code: d.code,
    severity: d.severity,
    ...(d.path !== undefined ? { path: d.path } : {}),
    ...(d.line !== undefined ? { line: d.line } : {}),
    ...(d.column !== undefined ? { column: d.column } : {}),
    message: d.message,
    ...(d.field !== undefined ? { field: d.field } : {}),
  }
}

const STYLE = {
  bold: ['\x1b[1m', '\x1b[22m'],
  italic: ['\x1b[3m', '\x1b[23m'],
  underline: ['\x1b[4m', '\x1b[24m'],
  dim: ['\x1b[2m', '\x1b[22m'],
  cyan: ['\x1b[36m', '\x1b[39m'],
} as const

function paint(color: boolean, style: keyof typeof STYLE, s: string): string {
  return color ? `${STYLE[style][0]}${s}${STYLE[style][1]}` : s
}

function blockText(b: Block, color: boolean): string {
  if (!color) return safe(b.text)
  return b.runs
    .map((r) => {
      let s = safe(r.text)
      if (r.em) s = paint(true, 'italic', s)
      if (r.strong) s = paint(true, 'bold', s)
      if (r.link !== undefined) s = paint(true, 'cyan', paint(true, 'underline', s))
      return s
    })
    .join('')
}

const tagsOf = (tags: readonly string[], color: boolean) =>
  tags.length ? ` ${paint(color, 'dim', safe(tags.map((t) => `#${t}`).join(' ')))}` : ''

/** The menu lines of a pause: options numbered 1…n, then links numbered on. */
export function pauseMenu(pause: PauseEvent, color: boolean): string[] {
  const lines: string[] = []
  let n = 1
  for (const o of pause.options)
    lines.push(`  ${n++}) ${safe(o.text)}${tagsOf(o.tags, color)}  ${paint(color, 'dim', safe(`[${o.id}]`))}`)
  for (const l of pause.links)
    lines.push(
      `  ${n++}) ${paint(color, 'cyan', safe(`→ ${l.text}`))}  ${paint(color, 'dim', safe(`[>${l.target}]`))}`,
    )
  return lines
}

/**
 * One event as transcript text (lines without the final newline), or `undefined` for events the
 * transcript leaves out. Diagnostics are printed by the caller (on standard error).
 */
export function eventToText(event: StoryEvent, color: boolean): string | undefined {
  switch (event.type) {
    case 'block': {
      const b = event.block
      const body =
        b.kind === 'heading'
          ? paint(color, 'bold', `${'#'.repeat(b.level ?? 1)} ${blockText(b, color)}`)
          : b.kind === 'media'
            ? paint(
                color,
                'dim',
                safe(`[${b.media ?? 'media'} ${b.path ?? ''}${b.text ? `: ${b.text}` : ''}]`),
              )
            : blockText(b, color)
      const text = `${body}${tagsOf(b.tags, color)}`
      return event.replay || b.seen ? paint(color, 'dim', text) : text
    }
    case 'pause':
      return pauseMenu(event, color).join('\n')
    case 'chosen':
      return paint(
        color,
        'dim',
        safe(
          event.auto
            ? `(auto) ${event.option}`
            : event.option.startsWith('>')
              ? `> → ${event.text || event.option.slice(1)}`
              : `> ${event.text}`,
        ),
      )
    case 'part-entered':
      return paint(
        color,
        'dim',
        safe(
          `== ${event.part}${event.scene ? `:${event.scene}` : ''}${event.tags.length ? ` (${event.tags.join(' ')})` : ''}`,
        ),
      )
    case 'diagnostic':
      return formatDiagnosticLine(event.diagnostic, color)
    case 'end':
      return paint(color, 'dim', '-- end')
  }
}
