// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the story language interpolates with ${}
/**
 * 1.1 sets (ink's LIST): values, operations, printing and order as inkjs 2.4 plays them, in
 * conditions, guards and `{set}`, and sets saved and resumed in the reading state.
 */
import { parseReadingStateText } from '@spkg/manifest'
import { describe, expect, it } from 'vitest'
import { memorySource, play } from '../../test/helpers/play.ts'
import { resumeStoryRun } from './resume-story-run.ts'
import type { StoryEvent } from './types.ts'

const texts = (events: StoryEvent[]) => events.flatMap((e) => (e.type === 'block' ? [e.block.text] : []))
const codes = (events: StoryEvent[]) =>
  events.flatMap((e) => (e.type === 'diagnostic' ? [e.diagnostic.code] : []))
const v11 = (files: Record<string, string>, session = {}) => ({
  ...memorySource(files, { session }),
  lang: '1.1',
})
const one = (text: string, answers: string[] = []) => play(v11({ 'x.sty': text }), answers, { seed: 1 })

describe('sets (1.1)', () => {
  it('prints items in declared order joined by ", ", as ink prints a LIST; empty prints nothing', async () => {
    const { events } = await one(
      '{items Tools = rope, lamp, key}\n{set inv = Tools(key, rope)}\n{set none = Tools()}\n[${inv}] [${none}] [${Tools.lamp}] [${lamp}]',
    )
    expect(texts(events)).toEqual(['[rope, key] [] [lamp] [lamp]'])
    expect(codes(events)).toEqual([])
  })
  it('an item prints its own text when its declaration gives one; it is still named by its name', async () => {
    const { events, run } = await one(
      '{items Tools = rope "a coil of rope", lamp, key "the iron key"}\n{set inv = Tools(key, rope, lamp)}\n[${inv}] [${str(key)}] [${[Tools.rope, lamp]}] ${contains(inv, key)} ${max(inv)}',
    )
    expect(texts(events)).toEqual([
      '[a coil of rope, lamp, the iron key] [the iron key] [a coil of rope, lamp] true the iron key',
    ])
    expect(codes(events)).toEqual([])
    expect(run.saveState().variables.inv).toEqual({ $items: 'Tools', of: ['rope', 'lamp', 'key'] })
  })
  it('unions with +, differences with -, counts with len, and takes min and max as one-item sets', async () => {
    const { events } = await one(
      [
        '{items Tools = rope, lamp, key}',
        '# Shed',
        '{set inv = Tools(key)}',
        '{set inv = inv + rope + lamp}',
        '{set inv -= lamp}',
        '${inv} / ${len(inv)} / ${min(inv)} / ${max(inv)} / ${min(Tools())} / ${inv - Tools(rope, key)}.',
        '{set inv += Tools.lamp}',
        '${inv}',
      ].join('\n'),
    )
    expect(texts(events)).toEqual(['Shed', 'rope, key / 2 / rope / key / / .', 'rope, lamp, key'])
    expect(codes(events)).toEqual([])
  })
  it('contains() holds when every item of the second is in the first; an empty side is false, as in ink', async () => {
    const { events } = await one(
      [
        '{items Tools = rope, lamp, key}',
        '{set inv = Tools(key, rope)}',
        '${contains(inv, rope)} ${contains(inv, Tools(rope, lamp))} ${contains(inv, Tools())} ${contains(Tools(), Tools())}',
      ].join('\n'),
    )
    expect(texts(events)).toEqual(['true false false false'])
  })
  it('compares as inkjs compares LISTs', async () => {
    // expected values: inkjs 2.4.0 on the same LIST expressions
    const { events } = await one(
      [
        '{items T = rope, lamp, key}',
        '${T(rope) < T(lamp)} ${T(rope, lamp) < T(lamp, key)} ${T(rope) < T(lamp, key)} ${T(rope, key) <= T(lamp, key)}',
        '${T(rope, lamp) >= T(rope)} ${T(rope) > T()} ${T() < T(rope)} ${T() == T()} ${T(rope, key) == T(key, rope)}',
        '${T(lamp) <= T(rope, key)} ${T(rope, key) < T(lamp)} ${T(lamp) >= T(rope, key)} ${T() > T()} ${T(rope) != T(lamp)}',
      ].join('\n'),
    )
    expect(texts(events)).toEqual([
      'true false true true true true true true true false false false false true',
    ])
  })
  it('an empty set is falsy in conditions and guards', async () => {
    const { lines } = await one(
      [
        '{items Tools = rope, lamp}',
        '{set inv = Tools(rope)}',
        '{if inv}Has.{else}Empty.{end}',
        '{set inv -= rope}',
        '{if inv}',
        'Has.',
        '{else}',
        'Empty.',
        '{end}',
        '* {if contains(inv, rope)} Climb',
        '* Wait',
      ].join('\n'),
    )
    expect(lines).toContain('#0 paragraph "Has."')
    expect(lines).toContain('#1 paragraph "Empty."')
    expect(lines).toContain('? [x.sty:h0@1] 2 "Wait"')
  })
  it('a variable wins over an item of the same name; then a constant; then the item', async () => {
    const { events } = await play(
      v11({
        'extensions/m.xty': '{items Tools = rope, lamp}\n{const lamp = 3}',
        'x.sty': '{use m}\n${rope} ${lamp}\n{set rope = "a rope"}\n${rope} ${Tools.rope}',
      }),
    )
    expect(texts(events)).toEqual(['rope 3', 'a rope rope'])
  })
  it('an item two declarations share is story/ambiguous-item unqualified, fine qualified', async () => {
    const { events } = await one('{items A = red, blue}\n{items B = red, green}\n${red} ${A.red} ${B.red}')
    expect(codes(events)).toEqual(['story/ambiguous-item'])
    expect(texts(events)).toEqual(['false red red'])
  })
  it('a wrong operand is story/type-error at play time and yields false', async () => {
    const { events } = await one(
      '{items Tools = rope, lamp}\n{set inv = Tools(rope)}\nHere.\n{set inv = inv - ["rope"]}\n${inv}',
    )
    expect(codes(events)).toEqual(['story/type-error'])
    expect(texts(events)).toEqual(['Here.', 'false'])
  })
  it('sets of two declarations do not mix; an unknown item is a type error', async () => {
    const { events } = await one('{items A = x, y}\n{items B = z}\n${A.x + B.z} ${A.w}')
    expect(codes(events)).toEqual(['story/type-error', 'story/type-error'])
  })
  it('at 1.0, {items} is an unknown command, as it always was', async () => {
    const { events } = await play(memorySource({ 'x.sty': '{items Tools = rope}\nHi.' }))
    expect(codes(events)).toEqual(['story/unknown-command'])
  })
  it('saves a set as {"$items", "of"} and resumes it; a saved map with a $ key stays a map', async () => {
    const files = {
      'x.sty': [
        '{items Tools = rope, lamp, key}',
        '{set inv = Tools(key, rope)}',
        '{set m = cfg}',
        '* Take the lamp',
        '  {set inv += lamp}',
        '* Leave',
        '- ${inv} ${m}',
      ]
        .join('\n')
        .replace('- ', ''),
    }
    const session = { cfg: { $items: 'Tools', of: ['lamp'] } }
    const source = v11(files, session)
    const { run } = await play(source, [], { seed: 3 })
    const saved = run.saveState()
    expect(saved.variables.inv).toEqual({ $items: 'Tools', of: ['rope', 'key'] })
    expect(saved.variables.m).toEqual({ $map: { $items: 'Tools', of: ['lamp'] } })
    const { state } = parseReadingStateText(JSON.stringify(saved), { storyId: 'test-story' })
    const { run: again } = await resumeStoryRun(source, state!)
    again.choose({ option: '1' })
    const rest: string[] = []
    for (let e = await again.next(); e; e = await again.next())
      if (e.type === 'block' && !e.replay) rest.push(e.block.text)
    expect(rest).toEqual(['rope, lamp, key {"$items":"Tools","of":["lamp"]}'])
  })
})
