import { describe, expect, it } from 'vitest'
import { eventToJson, eventToText } from './render-event'

describe('eventToJson', () => {
  it('prints a block with plain text, tags and its links', () => {
    expect(
      eventToJson({
        type: 'block',
        index: 1,
        block: {
          kind: 'paragraph',
          text: 'the forest path or the river road.',
          runs: [
            { text: 'the ' },
            { text: 'forest path', link: 'story/0003-forest.sty:edge' },
            { text: ' or the river road.' },
          ],
          tags: ['mood:cold'],
        },
      }),
    ).toEqual({
      type: 'block',
      index: 1,
      kind: 'paragraph',
      text: 'the forest path or the river road.',
      tags: ['mood:cold'],
      links: [{ text: 'forest path', target: 'story/0003-forest.sty:edge' }],
    })
  })

  it('prints a diagnostic with code, line and column and marks replayed events', () => {
    expect(
      eventToJson({
        type: 'diagnostic',
        replay: true,
        diagnostic: {
          code: 'story/division-by-zero',
          severity: 'error',
          message: 'division by zero',
          path: 'a.sty',
          line: 3,
          column: 5,
        },
      }),
    ).toEqual({
      type: 'diagnostic',
      code: 'story/division-by-zero',
      severity: 'error',
      path: 'a.sty',
      line: 3,
      column: 5,
      message: 'division by zero',
      replay: true,
    })
  })
})

describe('eventToText', () => {
  const pause = {
    type: 'pause' as const,
    key: 'road.sty:@end',
    options: [{ id: 'map', text: 'Ask about the map', tags: [] }],
    links: [{ target: 'story/0003-forest.sty:edge', text: 'forest path' }],
  }

  it('numbers options, then links, showing what --choose takes', () => {
    expect(eventToText(pause, false)).toBe(
      '  1) Ask about the map  [map]\n  2) → forest path  [>story/0003-forest.sty:edge]',
    )
  })

  it('styles runs only when colours are on', () => {
    const block = {
      type: 'block' as const,
      index: 0,
      block: {
        kind: 'heading' as const,
        level: 2,
        text: 'Forest Edge',
        runs: [{ text: 'Forest Edge' }],
        tags: [],
      },
    }
    expect(eventToText(block, false)).toBe('## Forest Edge')
    expect(eventToText(block, true)).toBe('\x1b[1m## Forest Edge\x1b[22m')
  })

  it("never prints a story's control characters raw, with or without colours (its own styles stay)", () => {
    const esc = 'Hi \x1b[2J\x1b]0;pwned\x07 there'
    const block = {
      type: 'block' as const,
      index: 0,
      block: {
        kind: 'paragraph' as const,
        text: esc,
        runs: [{ text: esc, strong: true as const }],
        tags: ['t\x1b'],
      },
    }
    expect(eventToText(block, false)).toBe('Hi \\x1b[2J\\x1b]0;pwned\\x07 there #t\\x1b')
    expect(eventToText(block, true)).toBe(
      '\x1b[1mHi \\x1b[2J\\x1b]0;pwned\\x07 there\x1b[22m \x1b[2m#t\\x1b\x1b[22m',
    )
    const menu = eventToText(
      { ...pause, options: [{ id: 'a', text: 'Go\x1bc', tags: [] }], links: [] },
      false,
    )
    expect(menu).toBe('  1) Go\\x1bc  [a]')
    const chosen = eventToText({ type: 'chosen', key: 'k', option: 'a', text: 'Go\x1bc', tags: [] }, false)
    expect(chosen).toBe('> Go\\x1bc')
  })
})
