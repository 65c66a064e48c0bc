/**
 * Test helpers: an in-memory story source and a transcript in the notation of STORY-LANGUAGE.md
 * section 11. Internal; used by the tests only.
 */
import type { JsonValue, StorySourceLike } from '@spkg/manifest'
import { createStoryRun } from '../../src/run/create-story-run.ts'
import type { StoryEvent, StoryRun, StoryRunOptions } from '../../src/run/types.ts'

/** A source over a map of path → text; `parts` defaults to the `.sty` keys in insertion order. */
export function memorySource(
  files: Record<string, string>,
  extra: { parts?: string[]; session?: Record<string, JsonValue>; reads?: string[] } = {},
): StorySourceLike {
  const parts = extra.parts ?? Object.keys(files).filter((k) => k.endsWith('.sty'))
  return {
    parts,
    readPart: (p) => {
      extra.reads?.push(p)
      return files[p]
    },
    modules: Object.keys(files)
      .filter((k) => k.endsWith('.xty'))
      .map((path) => ({ path, source: files[path]! })),
    session: extra.session,
    id: 'test-story',
  }
}

/** One event in the section-11 notation. */
export function describeEvent(e: StoryEvent): string {
  switch (e.type) {
    case 'part-entered':
      return `== part ${e.part}${e.scene ? `:${e.scene}` : ''}${e.tags.length ? ` (part tags: ${e.tags.join(' ')})` : ''}`
    case 'block': {
      const b = e.block
      const kind =
        b.kind === 'heading'
          ? `heading${b.level}`
          : b.kind === 'media'
            ? `media ${b.media} ${b.path} alt=`
            : b.kind
      const tags = b.tags.length ? ` [${b.tags.join(' ')}]` : ''
      return `#${e.index} ${kind}${b.kind === 'media' ? '' : ' '}${JSON.stringify(b.text)}${tags}`
    }
    case 'pause': {
      const items = [
        ...e.options.map((o) => `${o.id} ${JSON.stringify(o.text)}`),
        ...e.links.map((l) => `link ${JSON.stringify(l.text)} → ${l.target}`),
      ]
      return `? [${e.key}] ${items.join(' | ')}`
    }
    case 'chosen':
      return e.auto
        ? `(auto) ${e.option}`
        : `> ${e.option.startsWith('>') ? `link ${e.option.slice(1)}` : e.option}`
    case 'diagnostic':
      return `! ${e.diagnostic.code}${e.diagnostic.line ? ` ${e.diagnostic.line}:${e.diagnostic.column}` : ''}`
    case 'end':
      return '-- end'
  }
}

/**
 * Plays `source`, answering each live pause with the next answer (`>target` for a link); stops at
 * the first pause left unanswered. Replayed pauses (after a resume) are already answered.
 */
export async function play(
  source: StorySourceLike | StoryRun,
  answers: string[] = [],
  options: StoryRunOptions & { diagnostics?: boolean } = {},
): Promise<{ lines: string[]; events: StoryEvent[]; run: StoryRun }> {
  const run = 'next' in source ? source : createStoryRun(source, options)
  const lines: string[] = []
  const events: StoryEvent[] = []
  let i = 0
  for (let e = await run.next(); e; e = await run.next()) {
    events.push(e)
    if (e.type !== 'diagnostic' || options.diagnostics !== false) lines.push(describeEvent(e))
    if (e.type === 'pause' && !e.replay) {
      const a = answers[i++]
      if (a === undefined) break
      run.choose(a.startsWith('>') ? { link: a.slice(1) } : { option: a })
    }
    if (events.length > 100_000) throw new Error('runaway story')
  }
  return { lines, events, run }
}

/** The events a resumed run yields live (not replayed). */
export const live = (events: StoryEvent[]) => events.filter((e) => !e.replay)

/** The events from the `n`-th pause on (none when there are fewer pauses). */
export function fromPause(events: StoryEvent[], n: number): StoryEvent[] {
  let seen = 0
  const at = events.findIndex((e) => e.type === 'pause' && ++seen === n)
  return at < 0 ? [] : events.slice(at)
}
