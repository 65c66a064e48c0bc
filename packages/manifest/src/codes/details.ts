/**
 * The exact rule of a code whose one-line description cannot hold it, with an example: the
 * "rules and examples" sections of docs/diagnostic-codes.md (rendered by `codes-doc.ts`, never
 * bundled with the runtime). Markdown; story examples in `sty` fences.
 */
import type { DiagnosticCode } from './index'

export const DETAILS: Partial<Record<DiagnosticCode, string>> = {
  'story/dedented-body': `
A choice group is the option lines at one indentation, with only blank lines and comments between
them; an option's body is the lines indented deeper than its bullet. A line at the bullet's
indentation or less ends the group, and options after it start a new group, a second menu: the
reader first sees only the options above the line.

The warning is given on the first line after a group whose last option has a body when, with
**no blank line** before it, it is text, media or a command (not \`{if}\`, \`{elif}\`, \`{else}\`, \`{end}\`), and the lines after it
(still without a blank line, an anchor, a heading, a jump or a gate) reach an option at the
indentation of the group's options. That is almost always a body line that lost its indentation.
After an option without a body the line is a gather (ink's \`-\`: where every option goes on) and
is not reported.

\`\`\`sty
* Go north [#n]
  You walk.
The wind.
* Go south [#s]
\`\`\`

\`story.sty:3:1: warning story/dedented-body\`: \`The wind.\` ends the group, so the first menu offers
only "Go north". Indent \`The wind.\` under \`* Go north\`. To start a second menu on purpose, put a
blank line before the text (and, better, an anchor naming the new group):

\`\`\`sty
* Go north [#n]
  You walk.

The wind rises. Which way now?
[#second]
* Go south [#s]
\`\`\`

A \`- \` line in that place is an ink gather and is reported as \`story/ink-syntax\` instead.
`,
  'story/fall-through': `
Flow falls through headings like a document (STORY-LANGUAGE.md §12.3), so a section that ends
without a jump goes on into the next heading. That is the normal way to write a plain document,
and stays silent. It is reported when the next heading is a **sibling or an ancestor's sibling**
(its level is the level of the section that ends, or higher: \`## Kitchen\` falls into \`## Cellar\`
or \`# Part two\`, not into its own \`### Pantry\`), and that heading's id is **also the target** of a
jump, an option's jump, a gate or a link somewhere in the package: a scene that is entered by jumps
is rarely meant to be entered by accident as well. A silent heading (\`## [#loop]\`) prints
nothing and is, like an anchor, a place to come back to: falling into it is never reported.

A section "ends without a jump" when its last line is not \`-> #id\`, \`-> END\` or a gate, and it
is not a group all of whose options end in a jump (an option whose body and line have no jump
goes on after the group, and so falls through), nor an \`{if}\` whose every branch, \`{else}\`
included, ends in one. Content before the first heading (\`h0\`) is the part's opening, and an
empty section (a heading right above another) has no content to end: neither is reported.

\`\`\`sty
## Kitchen [#kitchen]
The kettle sings.
## Cellar [#cellar]
It is dark.
-> #kitchen
## Hall [#hall]
-> #cellar
\`\`\`

\`story.sty:3:1: warning story/fall-through\`: Kitchen falls into Cellar, which line 7 jumps to.
End Kitchen with a jump or \`-> END\`; if going on into the cellar is meant, say so with
\`-> #cellar\` right above its heading (that silences the warning).
`,
  'story/ink-syntax': `
A text line that is ink, not the story language, prints as text. The rule, on every text line
(indentation removed):

| Ink | Written in 1.x |
|---|---|
| \`~ x = 1\`, \`~ x += 1\`, \`~ x++\` | \`{set x = 1}\`, \`{set x += 1}\` |
| \`~ temp x = 1\` | \`{local x = 1}\` |
| \`VAR x = 1\` | \`{set x = 1}\` in the part's top lines (its declaration block) |
| \`CONST x = 1\` | \`{const x = 1}\` in a module, or \`{set x = 1}\` in the top lines |
| \`=== knot ===\`, \`== knot\` | \`# Knot [#knot]\` |
| \`= stitch\` | \`## Stitch [#stitch]\` |
| a gather: a \`-\` line right after a group (no blank line between), at the options' indentation or less; or \`-\` followed by \`*\`, \`+\`, \`(\`, \`->\` or another \`-\`, anywhere; or a lone \`-\` | the line without \`- \`, after the group at the options' indentation (the story goes on after a group by itself) |
| \`<>\` (glue) | the text on one line, or \`story_lang\` 1.1, which has glue |
| \`text -> #x\`, \`text -> knot\`, \`text -> END\` at the end of a line | \`-> #x\` on a line of its own, or \`story_lang\` 1.1, where it is a mid-line jump |

A \`- \` line anywhere else is prose (a dialogue dash: \`- Yes, she said.\`) and is not reported.

\`\`\`sty
VAR gold = 3
~ gold = gold - 1
You pay. -> #road
\`\`\`

Reported on each line; written in the language: \`{set gold = 3}\` in the top lines,
\`{set gold -= 1}\`, and \`-> #road\` on its own line.
`,
  'story/id-before-jump': `
An option line is read from its end: tags, then \`[#id]\`, then \` -> #id\` or \` -> END\`; what is
left after the bullet and the guard is the label. An \`[#id]\` written before the jump (or anywhere
inside the label) is therefore label text: the menu shows it, and the option keeps its positional
id (\`1\`, \`2\`…), so the id you meant protects no saved reading state.

\`\`\`sty
* Go [#n] -> #yard
\`\`\`

The menu shows "Go [#n]". Write \`* Go -> #yard [#n]\`. (An id or a jump written after the tags,
\`* Go #loud -> #yard\`, is lost with the tag list: \`story/tag-text\` says where it goes.)
`,
  'story/unused-variable': `
A story variable (a name some \`{set name = …}\` assigns) that no expression anywhere in the
package reads: no \`\${name}\`, condition, guard, argument, module function or passage, and no
\`{set name += …}\` counts as a read. It is reported once, at its first assignment (in play order
of the parts, then the modules), with the nearest name that *is* read when one is close enough to
be a typo.

\`\`\`sty
{set muddyshoes = false}
You cross the yard.
{set mudyshoes = true}
{if muddyshoes}The maid frowns.{end}
\`\`\`

\`story.sty:3:6: warning story/unused-variable: 'mudyshoes' is assigned but nothing in the story
reads it; did you mean 'muddyshoes'?\`

The value of an unread variable is still saved in the reading state, and a host app may read it
there. So the keys of \`session.json\` and the variables \`manifest.reader.tabBar\` shows (the
\`name\`s of its sections' \`variables\`) are never reported. To silence the warning for a
variable only a host reads, give it a key in \`session.json\` (its start value), or turn the rule
off for the story (\`"story/unused-variable": "off"\` in \`spkg.config.json\`). The language
server shows it from its whole-folder check only (a check of one part cannot see the reads of the
others).
`,
  'story/endless-loop': `
**Statically** (\`spkg validate\`): a cycle of jumps in one part that is certain to run forever
without a pause. From a jump target the flow is followed line by line; it is certain only when
nothing on the way can stop or turn it: no option group, no paragraph with a link, no gate, no
\`-> END\`, no end of the part, and no \`{if}\` holding a jump, a gate or a group. When such a walk
comes back to where it started, the jump that closes the cycle is reported, naming the cycle.

\`\`\`sty
## [#a]
Text.
-> #b
## [#b]
More.
-> #a
\`\`\`

\`story.sty:6:4: error story/endless-loop\`: the jump to \`#a\` closes the loop \`#a → #b → #a\`.

**At run time** a loop the checker cannot prove (one behind an \`{if}\`, or across parts) is stopped
after 100,000 steps without a block or a pause (a loop that shows nothing), or after 10,000 blocks
without a pause (a loop that prints text forever), naming the file and line where it stopped.
`,
}
