/**
 * 1.1 tunnels and returns in the editor features: go to the part a tunnel enters, complete part
 * targets after `->` and `->->` (only at 1.1: at 1.0 a jump names `#id` alone).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { complete, findDefinition } from '../src/analysis/features.ts'
import { StoryFolder } from '../src/node/story-folder.ts'

function folder(storyLang: string): StoryFolder {
  const root = mkdtempSync(join(tmpdir(), 'spkg-ls-tunnels-'))
  const files: Record<string, string> = {
    'manifest.json': JSON.stringify({ story_lang: storyLang, parts: ['story/a.sty', 'story/b.sty'] }),
    'story/a.sty': '-> b.sty:far ->\n->-> b.sty\n-> b\n# [#t]\n->->\n',
    'story/b.sty': 'B.\n## Far [#far]\n->->\n',
  }
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true })
    writeFileSync(join(root, p), text)
  }
  return new StoryFolder(root, true)
}

describe('tunnels in the language server (1.1)', () => {
  it('goes to the section a tunnel into another part enters, and to the part a return names', () => {
    const f = folder('1.1')
    expect(findDefinition(f, 'story/a.sty', { line: 0, character: 8 })).toEqual({
      path: 'story/b.sty',
      line: 1,
      character: 0,
    })
    expect(findDefinition(f, 'story/a.sty', { line: 1, character: 7 })).toEqual({
      path: 'story/b.sty',
      line: 0,
      character: 0,
    })
  })

  it('completes part targets after -> at 1.1 only', () => {
    const labels = (lang: string) =>
      complete(folder(lang), 'story/a.sty', { line: 2, character: 4 }).map((c) => c.label)
    expect(labels('1.1')).toContain('b.sty')
    expect(labels('1.0')).toEqual([])
  })
})
