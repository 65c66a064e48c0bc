// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation

import { E1, E2, E3, E4, E5, E6_MODULE, E6_PART } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { type CheckStoryInput, checkStory } from './check-story.ts'

/**
 * Diagnostics as `path:line:column code`. Not `story/unused-variable`: these snippets assign
 * names only to see how others are judged (that check has its rows in traps.test.ts).
 */
const run = (input: CheckStoryInput) =>
  checkStory(input)
    .filter((d) => d.code !== 'story/unused-variable')
    .map((d) => `${d.path}${d.line ? `:${d.line}:${d.column}` : ''} ${d.code}`)
/** A one-part package at `story/a.sty` plus extra parts. */
const one = (src: string, extra: Partial<CheckStoryInput> = {}) =>
  run({ order: ['story/a.sty'], ...extra, parts: { 'story/a.sty': src, ...(extra.parts ?? {}) } })

describe('checkStory on the worked examples', () => {
  it('E1 is clean apart from its media check', () => {
    const input = {
      parts: { 'story/inn.sty': E1 },
      order: ['story/inn.sty'],
      session: { name: 'mira', hard: true },
    }
    expect(run({ ...input, assets: ['assets/inn.webp'] })).toEqual([])
    expect(run({ ...input, assets: [] })).toEqual(['story/inn.sty:9:20 story/missing-media'])
  })

  it('E2 and E3 only get the implicit-id info for their once-only groups', () => {
    expect(run({ parts: { 'platform.sty': E2 }, order: ['platform.sty'] })).toEqual([
      'platform.sty:4:1 story/implicit-ids',
    ])
    expect(run({ parts: { 'bar.sty': E3 }, order: ['bar.sty'], session: { gold: 1 } })).toEqual([
      'bar.sty:4:1 story/implicit-ids',
    ])
  })

  it('E4, E5 and E6 are clean', () => {
    expect(run({ parts: { 'dice.sty': E4 }, order: ['dice.sty'] })).toEqual([])
    const order = Object.keys(E5)
    expect(run({ parts: E5, order }).filter((d) => !d.endsWith('implicit-ids'))).toEqual([])
    expect(
      run({
        parts: { 'duel.sty': E6_PART },
        order: ['duel.sty'],
        modules: { 'extensions/combat.xty': E6_MODULE },
      }),
    ).toEqual([])
  })

  it('includes parse diagnostics of every file, grouped by file in play order', () => {
    const ds = run({
      parts: { 'story/b.sty': '${', 'story/a.sty': '{nope}' },
      order: ['story/b.sty', 'story/a.sty'],
      modules: { 'extensions/m.xty': 'text' },
    })
    expect(ds).toEqual([
      'story/b.sty:1:1 story/unclosed-interpolation',
      'story/a.sty:1:1 story/unknown-command',
      'extensions/m.xty:1:1 story/module-content',
    ])
  })
})

describe('targets', () => {
  const parts = {
    'story/a.sty':
      '[Go > b.sty:edge] [Bad > b.sty:nope] [Opt > b.sty:run] [Far > other/c.sty]\n[[ story/missing.sty ]]',
    'story/b.sty': '# B\n## Edge [#edge]\n* Run [#run]\n  -> END\n+ Stay',
    'other/c.sty': 'C\n[[ ../story/b.sty ]]',
  }
  it('resolves relative and archive-relative targets and checks part and scene ids', () => {
    expect(run({ parts, order: ['story/a.sty', 'story/b.sty', 'other/c.sty'] })).toEqual([
      'story/a.sty:1:32 story/unknown-id',
      'story/a.sty:1:51 story/not-a-target',
      'story/a.sty:2:4 story/unknown-part',
      'story/b.sty:3:1 story/implicit-ids',
      'other/c.sty:2:4 story/bad-target',
    ])
  })

  it('treats a flat archive as holding exactly its one part', () => {
    expect(one('[[ other.sty ]]')).toEqual(['story/a.sty:1:4 story/unknown-part'])
    const parts = { 'main.sty': 'Go [on > extra.sty] or [back > main.sty].', 'extra.sty': 'x' }
    expect(run({ parts, order: ['main.sty'], flat: true }).filter((d) => !d.endsWith('unreachable'))).toEqual(
      ['main.sty:1:10 story/unknown-part'],
    )
  })

  it('accepts implicit heading ids as scenes', () => {
    expect(one('[[ b.sty:h2 ]]', { parts: { 'story/b.sty': '# One\n# Two' } })).toEqual([])
  })
})

describe('unreachable content', () => {
  it('reports a section after a jump that nothing targets', () => {
    expect(one('# A\n-> END\n# B [#b]\nlost\n# C\nalso lost')).toEqual(['story/a.sty:3:1 story/unreachable'])
  })

  it('accepts a section after a jump when a jump, gate or link targets it', () => {
    expect(one('-> #b\n[#b]\nx\n-> END\n# C [#c]\n[[ a.sty:c ]]')).toEqual([])
    expect(one('[[ b.sty ]]\n# Late [#late]', { parts: { 'story/b.sty': '[[ a.sty:late ]]' } })).toEqual([])
  })

  it('reports parts that no gate, link or fall-through reaches', () => {
    const parts = {
      'story/1.sty': 'Start.\n[[ 3.sty ]]',
      'story/2.sty': 'Skipped: 1 ends with a gate.',
      'story/3.sty': 'Gated to.',
      'story/4.sty': 'Reached by falling off the end of 3.\n-> END',
      'story/5.sty': 'Never: 4 ends with -> END.',
      'story/side.sty': 'Not in the play order.',
    }
    expect(
      run({ parts, order: ['story/1.sty', 'story/2.sty', 'story/3.sty', 'story/4.sty', 'story/5.sty'] }),
    ).toEqual([
      'story/2.sty:1:1 story/unreachable',
      'story/5.sty:1:1 story/unreachable',
      'story/side.sty:1:1 story/unreachable',
    ])
    expect(
      run({
        parts: { ...parts, 'story/4.sty': '[Side > side.sty] [Five > 5.sty]' },
        order: ['story/1.sty', 'story/3.sty', 'story/4.sty', 'story/5.sty'],
      }),
    ).toEqual(['story/2.sty:1:1 story/unreachable'])
  })

  it('orders findings at one position the same whichever check made them', () => {
    const order = ['story/a.sty', 'story/b.sty']
    expect(run({ parts: { 'story/a.sty': '-> END', 'story/b.sty': '{set x\n[[ no.sty ]]' }, order })).toEqual(
      [
        'story/b.sty:1:1 story/unclosed-brace',
        'story/b.sty:1:1 story/unreachable',
        'story/b.sty:2:4 story/unknown-part',
      ],
    )
    expect(
      run({ parts: { 'story/a.sty': '-> END', 'story/b.sty': '{seed 1}\n[[ no.sty ]]' }, order }),
    ).toEqual([
      'story/b.sty:1:1 story/seed-placement',
      'story/b.sty:1:1 story/unreachable',
      'story/b.sty:2:4 story/unknown-part',
    ])
    expect(run({ parts: { 'story/a.sty': '-> END', 'story/b.sty': '* a\n* b' }, order })).toEqual([
      'story/b.sty:1:1 story/implicit-ids',
      'story/b.sty:1:1 story/unreachable',
    ])
  })

  it('sees targets in parts checked after the part they reach', () => {
    const parts = {
      'story/a.sty': 'x\n-> END\n# One [#one]\n-> END\n[#two]\n-> END\n# Three [#three]',
      'story/b.sty': '[One > a.sty:one] [Three > a.sty:three] [Four > c.sty:four]',
      'story/c.sty': '# Four [#four]',
    }
    expect(run({ parts, order: ['story/a.sty', 'story/b.sty', 'story/c.sty'] })).toEqual([
      'story/a.sty:5:1 story/unreachable',
    ])
  })

  it('keeps the parse-time report of content right after a jump', () => {
    expect(one('-> END\ntext')).toEqual(['story/a.sty:2:1 story/unreachable'])
  })
})

describe('variables', () => {
  it('reports names that no default, module, session or assignment declares', () => {
    expect(one('Gold: ${gold}.\n{set hp -= 1}')).toEqual([
      'story/a.sty:1:9 story/undeclared',
      'story/a.sty:2:6 story/undeclared',
    ])
  })

  it('counts defaults, session keys, module defaults and plain assignments in any part as declarations', () => {
    expect(
      run({
        parts: {
          'story/a.sty': '{use m}\n{set a = 1}\n${a + b + c + d}\n[[ b.sty ]]',
          'story/b.sty': '{set d = 0}\ntext\n{set a += 1}',
        },
        order: ['story/a.sty', 'story/b.sty'],
        modules: { 'extensions/m.xty': '{set c = 2}' },
        session: { b: 3 },
      }),
    ).toEqual([])
  })

  it('sees locals in their section and subsections only', () => {
    expect(one('# A [#a]\n{local n = 1}\n## Sub\n${n}\n# B\n${n}')).toEqual([
      'story/a.sty:6:3 story/undeclared',
    ])
  })

  it('scopes a heading inside an option body to that body', () => {
    expect(one('# A [#a]\n* Go\n  ## Sub\n  {local n = 1}\n  ${n}\n* Stay ${n}\n${n}')).toEqual([
      'story/a.sty:2:1 story/implicit-ids',
      'story/a.sty:6:10 story/undeclared',
      'story/a.sty:7:3 story/undeclared',
    ])
  })

  it('judges every part against the story variables of the whole package', () => {
    const parts = {
      'story/a.sty':
        '{use m}\n# A\n{local late = 1}\n${later} ${never}\n{set C = 2}\n{set never += 1}\n[[ b.sty ]]',
      'story/b.sty': '{set later = 1}\n{set late = 2}\n${never}',
    }
    expect(
      run({
        parts,
        order: ['story/a.sty', 'story/b.sty'],
        modules: { 'extensions/m.xty': '{const C = 1}' },
      }),
    ).toEqual([
      'story/a.sty:3:8 story/shadowing',
      'story/a.sty:4:12 story/undeclared',
      'story/a.sty:5:6 story/const-assign',
      'story/a.sty:6:6 story/undeclared',
      'story/b.sty:3:3 story/undeclared',
    ])
  })

  it('warns when a local hides a story variable', () => {
    expect(one('{set gold = 1}\n# A\n{local gold = 2}')).toEqual(['story/a.sty:3:8 story/shadowing'])
  })

  it('sees function and passage parameters and module constants', () => {
    const modules = {
      'extensions/m.xty': '{const K = 2}\n{fn f(x) = x * K}\n{passage p(who)}\n${who} ${K}\n{end}',
    }
    expect(one('{use m}\n${f(K)}\n{insert p("me")}', { modules })).toEqual([])
  })

  it('reports undeclared names inside modules', () => {
    expect(one('{use m}', { modules: { 'extensions/m.xty': '{fn f(x) = x + y}' } })).toEqual([
      'extensions/m.xty:1:16 story/undeclared',
    ])
  })

  it('refuses assignments to module constants', () => {
    expect(
      one('{use m}\n{set K = 3}\ntext\n{set K += 1}', { modules: { 'extensions/m.xty': '{const K = 2}' } }),
    ).toEqual(['story/a.sty:2:6 story/const-assign', 'story/a.sty:4:6 story/const-assign'])
  })

  it('flags session keys a story cannot read', () => {
    const ds = checkStory({
      parts: { 'a.sty': 'x' },
      order: ['a.sty'],
      session: { 'bad-key': 1, nul: null, if: 2, ok: 1 },
    })
    expect(ds.map((d) => [d.code, d.severity, d.path, d.field])).toEqual([
      ['story/session-name', 'warning', 'session.json', 'bad-key'],
      ['story/session-name', 'warning', 'session.json', 'nul'],
      ['story/session-name', 'warning', 'session.json', 'if'],
    ])
  })
})

describe('modules', () => {
  it('reports {use} of a module that is not in the archive', () => {
    expect(one('{use combat}\n{use extensions/x.xty}\ntext')).toEqual([
      'story/a.sty:1:6 story/unknown-module',
      'story/a.sty:2:6 story/unknown-module',
    ])
  })

  it('falls back to a module at the root, as the interpreter does', () => {
    expect(one('{use m}\n${K}', { modules: { 'm.xty': '{const K = 1}' } })).toEqual([])
  })

  it('finds modules at the root of a flat archive', () => {
    expect(
      run({
        parts: { 'a.sty': '{use m}\n${K}' },
        order: ['a.sty'],
        modules: { 'm.xty': '{const K = 1}' },
        flat: true,
      }),
    ).toEqual([])
  })

  it('reports module cycles', () => {
    const modules = {
      'extensions/a.xty': '{use b}',
      'extensions/b.xty': '{use c}',
      'extensions/c.xty': '{use a}',
    }
    expect(one('{use a}', { modules })).toEqual(['extensions/c.xty:1:6 story/module-cycle'])
  })

  it('reports duplicate declarations, in one module, across modules and against built-ins', () => {
    const modules = {
      'extensions/a.xty': '{const X = 1}\n{fn X() = 2}\n{fn max(a) = a}\n{set hp = 1}',
      'extensions/b.xty': '{passage X}\n{end}\n{set hp = 2}\n{extern audio.play()}\n{extern audio.play()}',
    }
    expect(one('text', { modules, requires: ['audio'] })).toEqual([
      'extensions/a.xty:2:5 story/duplicate-declaration',
      'extensions/a.xty:3:5 story/duplicate-declaration',
      'extensions/b.xty:1:10 story/duplicate-declaration',
      'extensions/b.xty:5:9 story/duplicate-declaration',
    ])
  })

  it('follows manifest.extensions for the load order', () => {
    const modules = { 'extensions/a.xty': '{const X = 1}', 'extensions/b.xty': '{const X = 2}' }
    expect(one('text', { modules, extensions: ['extensions/b.xty', 'extensions/a.xty'] })).toEqual([
      'extensions/a.xty:1:8 story/duplicate-declaration',
    ])
  })

  it('reports {extern} namespaces missing from manifest.requires', () => {
    const modules = { 'extensions/m.xty': '{extern audio.play(name)}\n{extern haptics.buzz()}' }
    expect(one('text', { modules, requires: ['audio'] })).toEqual([
      'extensions/m.xty:2:9 story/extern-namespace',
    ])
  })

  it('reports recursion through functions and passages', () => {
    const modules = {
      'extensions/m.xty':
        '{fn f(n) = g(n)}\n{fn g(n) = f(n - 1)}\n{fn h(n) = n}\n{passage p}\n{insert p}\n{end}',
    }
    expect(one('text', { modules })).toEqual([
      'extensions/m.xty:1:5 story/recursion',
      'extensions/m.xty:4:10 story/recursion',
    ])
  })

  it('keeps constants to literals, pure built-ins and other constants', () => {
    const modules = {
      'extensions/m.xty': '{const A = max(1, 2) + 1}\n{const B = A * 2}\n{const C = gold}\n{const D = 1d6}',
    }
    expect(one('{set gold = 1}', { modules })).toEqual([
      'extensions/m.xty:3:12 story/bad-expression',
      'extensions/m.xty:4:12 story/bad-expression',
    ])
  })
})

describe('functions, passages and host calls', () => {
  const modules = {
    'extensions/m.xty': '{fn f(a, b) = a + b}\n{passage p(x)}\n${x}\n{end}\n{extern audio.play(name)}',
    'extensions/other.xty': '{fn hidden() = 1}',
  }
  it('reports names no used module declares (modules are not transitive)', () => {
    expect(
      one('{use m}\n${f(1, 2)} ${hidden()} ${nope(1)} ${audio.stop()}\n{insert q}\n{call audio.stop()}', {
        modules,
        requires: ['audio'],
      }),
    ).toEqual([
      'story/a.sty:2:14 story/unknown-function',
      'story/a.sty:2:26 story/unknown-function',
      'story/a.sty:2:37 story/unknown-function',
      'story/a.sty:3:9 story/unknown-function',
      'story/a.sty:4:7 story/unknown-function',
    ])
  })

  it('checks argument counts of built-ins, functions, passages and externs', () => {
    expect(
      one(
        '{use m}\n${len(1, 2)} ${min()} ${visits()} ${f(1)}\n{insert p}\n{call audio.play()}\n${audio.play("x")}',
        {
          modules,
          requires: ['audio'],
        },
      ),
    ).toEqual([
      'story/a.sty:2:3 story/arity',
      'story/a.sty:2:16 story/arity',
      'story/a.sty:2:37 story/arity',
      'story/a.sty:3:9 story/arity',
      'story/a.sty:4:7 story/arity',
    ])
  })
})

describe('runtime errors that literals make certain', () => {
  it('reports dice, rolls and ranges out of bounds, pick([]) and division by zero', () => {
    expect(
      one(
        '${0d6} ${101d6} ${1d0} ${2d6}\n${roll(0, 6)} ${roll(2, 6)} ${random(5, 1)} ${random(0, 1000000)} ${random(1, 6)}\n${pick([])} ${1 / 0} ${5 % -0} ${1 / 2}',
      ),
    ).toEqual([
      'story/a.sty:1:3 story/roll-range',
      'story/a.sty:1:10 story/roll-range',
      'story/a.sty:1:19 story/roll-range',
      'story/a.sty:2:3 story/roll-range',
      'story/a.sty:2:31 story/roll-range',
      'story/a.sty:2:47 story/roll-range',
      'story/a.sty:3:3 story/empty-pick',
      'story/a.sty:3:17 story/division-by-zero',
      'story/a.sty:3:26 story/division-by-zero',
    ])
  })
})

describe('manifest and placement', () => {
  it('reports a story_lang of another major version, or a 1.x newer than the library', () => {
    for (const storyLang of ['2.0', '1.3']) {
      const ds = checkStory({ parts: { 'a.sty': 'x' }, order: ['a.sty'], storyLang })
      expect(ds).toMatchObject([{ code: 'story/lang-version', path: 'manifest.json', field: 'story_lang' }])
    }
    expect(checkStory({ parts: { 'a.sty': 'x' }, order: ['a.sty'], storyLang: '1.1' })).toEqual([])
  })

  it('takes the first listed part that exists as the entry', () => {
    expect(run({ parts: { 'b.sty': '{seed 1}\ntext' }, order: ['missing.sty', 'b.sty'] })).toEqual([])
  })

  it('reports {seed} outside the entry part', () => {
    expect(
      run({
        parts: { 'story/a.sty': '{seed 1}\n[[ b.sty ]]', 'story/b.sty': '{seed 2}\ntext' },
        order: ['story/a.sty', 'story/b.sty'],
      }),
    ).toEqual(['story/b.sty:1:1 story/seed-placement'])
  })

  it('reports once-only groups without explicit ids, naming what is missing', () => {
    const ds = checkStory({
      parts: {
        'a.sty': '[#g]\n* One [#one]\n* Two\n\ntext\n[#h]\n* A [#a]\n+ sticky\n\ntext\n+ only sticky\n*',
      },
      order: ['a.sty'],
    })
    expect(ds.map((d) => [d.code, d.severity, d.line])).toEqual([['story/implicit-ids', 'info', 1]])
    expect(ds[0]!.message).toMatch(/options 2 have no explicit id/)
  })
})
