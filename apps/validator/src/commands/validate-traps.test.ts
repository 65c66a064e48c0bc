/**
 * `spkg validate` on the mistakes of a hand port from ink each is printed with its
 * file, line and column, its code and a message that ends with the fix, and none fails the story.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'
import { freshDir, writeTree } from '../../test/helpers/tree'

const PORT = `# Yard [#yard]
VAR muddy = false
* Go north [#n]
  You walk.
The wind.
* Go south [#s]
* Leave [#l] -> #road
- They meet.
[#wait]
* Wait -> END [#w]
## Road [#road]
You leave. -> #yard
-> END
`

describe('spkg validate: traps of a port from ink', () => {
  it('prints each trap at its line, as a warning whose message ends with the fix', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'port'), { 'story.sty': PORT })
    const r = await runCli(['validate', 'port', '--rule', 'story/implicit-ids=off'], { cwd })
    expect(r.code).toBe(0)
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      "story.sty:2:1: warning story/ink-syntax: 'VAR muddy' is ink, and prints as text here; write '{set muddy = false}' in the part's top lines (its declaration block)",
      'story.sty:5:1: warning story/dedented-body: this line is not indented under the option on line 3, so it ends the choice group: the options from line 6 start a new menu, and the menu of line 3 offers only the option above it; indent the line under the option, or put a blank line and an anchor ([#id]) above line 6 to start a new menu on purpose',
      "story.sty:7:9: warning story/id-before-jump: '[#l]' is before the jump, so it is not the option's id: the menu shows it as text and the option is saved by its position; write the id last, after the label and the jump: '* Leave -> #road [#l]'",
      "story.sty:8:1: warning story/ink-syntax: '- ' starts an ink gather, and prints as text here; after the group the story goes on by itself: write the line without '- ' ('They meet.') at the options' indentation, after the group",
      "story.sty:12:12: warning story/ink-syntax: a jump at the end of a text line prints as text in 1.0; put '-> #yard' on a line of its own, or set story_lang to 1.1, which allows it at a line's end",
      'port: valid: 5 warnings',
    ])
  })
  it('names both sections of a fall-through into a section that a jump also enters', async () => {
    const cwd = freshDir()
    const story =
      '## Kitchen [#kitchen]\nThe kettle sings.\n## Cellar [#cellar]\nDark.\n-> #kitchen\n## Hall [#hall]\n-> #cellar\n'
    writeTree(join(cwd, 'house'), { 'story.sty': story })
    const r = await runCli(['validate', 'house'], { cwd })
    expect(r.stdout).toContain(
      "story.sty:3:1: warning story/fall-through: the section 'Kitchen' (line 1) ends without a jump, so play falls through into 'Cellar', which line 7 also enters; end 'Kitchen' with a jump or '-> END', or write '-> #cellar' right above this heading if falling through is meant\n",
    )
  })
  it('names the variable meant by an assignment nothing reads', async () => {
    const cwd = freshDir()
    const story =
      '{set muddyshoes = false}\nYou cross the yard.\n{set mudyshoes = true}\n{if muddyshoes}The maid frowns.{end}\n'
    writeTree(join(cwd, 'yard'), { 'story.sty': story })
    const r = await runCli(['validate', 'yard'], { cwd })
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      "story.sty:3:6: warning story/unused-variable: 'mudyshoes' is assigned but nothing in the story reads it; did you mean 'muddyshoes'?",
      'yard: valid: 1 warning',
    ])
  })
  it('fails a story with a loop that never pauses, at the jump that closes it', async () => {
    const cwd = freshDir()
    writeTree(join(cwd, 'loop'), { 'story.sty': '## [#a]\nText.\n-> #b\n## [#b]\nMore.\n-> #a\n' })
    const r = await runCli(['validate', 'loop'], { cwd })
    expect(r.code).toBe(1)
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      "story.sty:6:4: error story/endless-loop: this jump closes a loop that never pauses: #a → #b → #a runs again and again with no choice, link or '-> END' on the way, and play stops it; add an option group or '-> END' to the loop, or put a jump inside an {if} that can leave it",
      'loop: invalid (a reader still opens it): 1 error',
    ])
  })
})
