import { defineCodes, error, info, warning } from './types'

/** Codes of the story language (STORY-LANGUAGE.md section 10; owned by @spkg/story). */
export const STORY_CODES = defineCodes({
  // Source text and structure (parse time)
  'story/encoding': error('a story source is not valid UTF-8 or contains NUL'),
  'story/reserved-id': error('an explicit id has the reserved form `h<digits>`'),
  'story/duplicate-id': error('an explicit id names two things in one file'),
  'story/bad-path': error('a media path has a URL scheme, a leading `/` or `..`, or an unknown extension'),
  'story/missing-media': error('a media file is not in the archive'),
  'story/unknown-id': error('a jump, target or `visits()` names an id that does not exist'),
  'story/unreachable': warning(
    'content no flow can reach: a line after a jump or gate, a section nothing targets, a part nothing enters',
  ),
  'story/tag-text': warning(
    'a word after the start of a tag list that is not a tag; it is ignored (`\\#` writes a literal `#`)',
  ),
  'story/dedented-body': warning(
    'a line of an option body at the bullet’s indentation or less, with options of the same group below it: it ends the group and splits the menu',
  ),
  'story/fall-through': warning(
    'a section ends without a jump and falls into the next sibling heading, which a jump, gate or link also targets',
  ),
  'story/ink-syntax': warning(
    'a text line written in ink (`~ x = 1`, `VAR`, `=== knot ===`, a `-` gather, `<>`, a divert at the end of a line), which prints as text; or ink’s spelling of a 1.1 alternative (`{a|b}`, `{&a|b}`, `{~a|b}`, `{!a|b}`), which plays as the 1.1 equivalent',
  ),
  'story/id-before-jump': warning(
    'an option’s `[#id]` written before its jump or inside its label: the menu shows it and it is not the option’s id',
  ),
  'story/bad-target': error('a gate or link target does not end `.sty`, has `..` or a leading `/`'),
  'story/unknown-part': error('a gate or link names a part that is not in the archive'),
  'story/not-a-target': error('a jump names an option id, which is not a jump target'),
  'story/link-in-label': error('a link inside a heading or option label'),
  'story/lang-version': error(
    '`story_lang` has a major version other than 1, or is a 1.x newer than this library reads (it reads 1.0 and 1.1)',
  ),
  'story/unclosed-brace': error('a command is not closed on its line'),
  'story/unclosed-interpolation': error('`${` is not closed'),
  'story/bad-expression': error(
    'an expression or command has a syntax error, nests too deeply, or a `{const}` is not constant',
  ),
  'story/unknown-command': error('an unknown `{keyword}` or one not allowed here'),
  'story/missing-end': error('`{if}` or `{passage}` is not closed by `{end}`'),
  'story/unexpected-end': error('`{end}` with nothing open'),
  'story/else-without-if': error('`{elif}` or `{else}` with no `{if}`'),
  'story/indentation': error('inconsistent indentation in an option body'),
  'story/local-placement': error('`{local}` outside a heading section'),
  'story/bad-default': error('`+=` or `-=` in a declaration block'),
  'story/repeated-default': warning(
    'a second default for the same name in one declaration block, which never runs (a default is skipped once its name has a value)',
  ),
  'story/seed-placement': error('`{seed}` outside the entry part’s declaration block'),
  'story/seed-range': error('`{seed N}` outside 0..2^32-1; it is ignored'),
  'story/empty-alternative': error('a sequence, cycle, shuffle or once-only alternative (1.1) with no items'),
  // Modules
  'story/use-placement': error('`{use}` outside a declaration block'),
  'story/unknown-module': error('`{use}` of a module that is not in the archive'),
  'story/module-cycle': error('modules `{use}` each other in a cycle'),
  'story/module-content': error('a module line that is not a declaration at column 1'),
  'story/const-assign': error("an assignment to a constant (a module's, or in 1.1 a part's)"),
  'story/recursion': error(
    'a module function calls itself, directly or not (1.1: only a cycle of one-line functions)',
  ),
  'story/recursion-depth': error(
    '1.1: function calls nested more than 200 deep at play time; the call yields `false`',
  ),
  'story/return-placement': error('1.1: `{return}` outside a block function'),
  'story/ref-argument': error('1.1: the argument for a `ref` parameter is not a variable name'),
  'story/ambiguous-item': error(
    '1.1: a bare item name that two `{items}` declarations share, or that a variable or constant also names',
  ),
  'story/duplicate-declaration': error(
    "a module name (or in 1.1 a part's constant) declared twice, or one that is a built-in",
  ),
  'story/extern-namespace': error('`{extern ns.f}` whose namespace is not in `manifest.requires`'),
  'story/unknown-function': error(
    'a call, `{insert}` or `{call}` names a function or passage that is not visible',
  ),
  // Variables (validator and runtime)
  'story/session-name': warning('a `session.json` key a story cannot read; ignored'),
  'story/undeclared': error('a variable that no part default, module or session declares'),
  'story/uninitialised': error('a `{local}` read before its line has run'),
  'story/shadowing': warning('a `{local}` hides a story variable'),
  'story/unused-variable': warning(
    'a story variable is assigned but nothing in the package reads it (a misspelt name, or a value only a host reads)',
  ),
  'story/implicit-ids': info(
    'a group of once-only options without explicit ids; an insertion above would shift saved choices',
  ),
  // Runtime (never stop play)
  'story/exhausted-group': warning('a choice group had no available option'),
  'story/type-error': error('an operation got a value of the wrong type'),
  'story/index-range': error('a list index outside the list'),
  'story/no-key': error('a map has no such key'),
  'story/undefined': error('a variable read before any value was assigned'),
  'story/division-by-zero': error('division or remainder by zero'),
  'story/number-overflow': error('a result is not a finite number'),
  'story/arity': error('a function called with the wrong number of arguments'),
  'story/roll-range': error('a roll or random range outside what the language allows'),
  'story/empty-pick': error('`pick([])`: nothing to pick from'),
  'story/host-error': error('a host function for `{call}` is missing or threw; play goes on'),
  'story/load-failed': error('the loader could not provide a part or module'),
  'story/resume-diverged': warning(
    'a saved state no longer replays on the edited story; play restarts the current part',
  ),
  'story/invalid-choice': error(
    'the host answered a pause with an option id or link that the pause does not offer',
  ),
  'story/endless-loop': error(
    'a loop of jumps with no choice: `spkg validate` finds one that is certain; play stops one after 100,000 steps without a block or 10,000 blocks without a pause',
  ),
  'story/tunnel-return': error('`->->` ran with no tunnel open (1.1); the story ends there'),
  'story/tunnel-end': warning(
    'a section entered by a tunnel can reach the end of its part without `->->` (1.1)',
  ),
})
