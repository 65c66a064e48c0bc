import { defineCodes } from './types'

/** Codes of the story language (STORY-LANGUAGE.md section 10; owned by @spkg/story). */
export const STORY_CODES = defineCodes({
  // Source text and structure (parse time)
  'story/encoding': { severity: 'error', description: 'a story source is not valid UTF-8 or contains NUL' },
  'story/reserved-id': { severity: 'error', description: 'an explicit id has the reserved form `h<digits>`' },
  'story/duplicate-id': { severity: 'error', description: 'an explicit id names two things in one file' },
  'story/bad-path': {
    severity: 'error',
    description: 'a media path has a URL scheme, a leading `/` or `..`, or an unknown extension',
  },
  'story/missing-media': { severity: 'error', description: 'a media file is not in the archive' },
  'story/unknown-id': {
    severity: 'error',
    description: 'a jump, target or `visits()` names an id that does not exist',
  },
  'story/unreachable': {
    severity: 'warning',
    description:
      'content no flow can reach: a line after a jump or gate, a section nothing targets, a part nothing enters',
  },
  'story/tag-text': {
    severity: 'warning',
    description:
      'a word after the start of a tag list that is not a tag; it is ignored (`\\#` writes a literal `#`)',
  },
  'story/bad-target': {
    severity: 'error',
    description: 'a gate or link target does not end `.sty`, has `..` or a leading `/`',
  },
  'story/unknown-part': {
    severity: 'error',
    description: 'a gate or link names a part that is not in the archive',
  },
  'story/not-a-target': {
    severity: 'error',
    description: 'a jump names an option id, which is not a jump target',
  },
  'story/link-in-label': { severity: 'error', description: 'a link inside a heading or option label' },
  'story/lang-version': { severity: 'error', description: '`story_lang` has a major version other than 1' },
  'story/unclosed-brace': { severity: 'error', description: 'a command is not closed on its line' },
  'story/unclosed-interpolation': { severity: 'error', description: '`${` is not closed' },
  'story/bad-expression': {
    severity: 'error',
    description:
      'an expression or command has a syntax error, nests too deeply, or a `{const}` is not constant',
  },
  'story/unknown-command': {
    severity: 'error',
    description: 'an unknown `{keyword}` or one not allowed here',
  },
  'story/missing-end': { severity: 'error', description: '`{if}` or `{passage}` is not closed by `{end}`' },
  'story/unexpected-end': { severity: 'error', description: '`{end}` with nothing open' },
  'story/else-without-if': { severity: 'error', description: '`{elif}` or `{else}` with no `{if}`' },
  'story/indentation': { severity: 'error', description: 'inconsistent indentation in an option body' },
  'story/local-placement': { severity: 'error', description: '`{local}` outside a heading section' },
  'story/bad-default': { severity: 'error', description: '`+=` or `-=` in a declaration block' },
  'story/seed-placement': {
    severity: 'error',
    description: '`{seed}` outside the entry part’s declaration block',
  },
  'story/seed-range': { severity: 'error', description: '`{seed N}` outside 0..2^32-1; it is ignored' },
  // Modules
  'story/use-placement': { severity: 'error', description: '`{use}` outside a declaration block' },
  'story/unknown-module': {
    severity: 'error',
    description: '`{use}` of a module that is not in the archive',
  },
  'story/module-cycle': { severity: 'error', description: 'modules `{use}` each other in a cycle' },
  'story/module-content': {
    severity: 'error',
    description: 'a module line that is not a declaration at column 1',
  },
  'story/const-assign': { severity: 'error', description: 'an assignment to a module constant' },
  'story/recursion': { severity: 'error', description: 'a module function calls itself, directly or not' },
  'story/duplicate-declaration': {
    severity: 'error',
    description: 'a module name declared twice, or a module name that is a built-in',
  },
  'story/extern-namespace': {
    severity: 'error',
    description: '`{extern ns.f}` whose namespace is not in `manifest.requires`',
  },
  'story/unknown-function': {
    severity: 'error',
    description: 'a call, `{insert}` or `{call}` names a function or passage that is not visible',
  },
  // Variables (validator and runtime)
  'story/session-name': {
    severity: 'warning',
    description: 'a `session.json` key a story cannot read; ignored',
  },
  'story/undeclared': {
    severity: 'error',
    description: 'a variable that no part default, module or session declares',
  },
  'story/uninitialised': { severity: 'error', description: 'a `{local}` read before its line has run' },
  'story/shadowing': { severity: 'warning', description: 'a `{local}` hides a story variable' },
  'story/implicit-ids': {
    severity: 'info',
    description:
      'a group of once-only options without explicit ids; an insertion above would shift saved choices',
  },
  // Runtime (never stop play)
  'story/exhausted-group': { severity: 'warning', description: 'a choice group had no available option' },
  'story/type-error': { severity: 'error', description: 'an operation got a value of the wrong type' },
  'story/index-range': { severity: 'error', description: 'a list index outside the list' },
  'story/no-key': { severity: 'error', description: 'a map has no such key' },
  'story/undefined': { severity: 'error', description: 'a variable read before any value was assigned' },
  'story/division-by-zero': { severity: 'error', description: 'division or remainder by zero' },
  'story/number-overflow': { severity: 'error', description: 'a result is not a finite number' },
  'story/arity': { severity: 'error', description: 'a function called with the wrong number of arguments' },
  'story/roll-range': {
    severity: 'error',
    description: 'a roll or random range outside what the language allows',
  },
  'story/empty-pick': { severity: 'error', description: '`pick([])`: nothing to pick from' },
  'story/host-error': {
    severity: 'error',
    description: 'a host function for `{call}` is missing or threw; play goes on',
  },
  'story/load-failed': { severity: 'error', description: 'the loader could not provide a part or module' },
  'story/resume-diverged': {
    severity: 'warning',
    description: 'a saved state no longer replays on the edited story; play restarts the current part',
  },
  'story/invalid-choice': {
    severity: 'error',
    description: 'the host answered a pause with an option id or link that the pause does not offer',
  },
  'story/endless-loop': {
    severity: 'error',
    description: 'play ran 100,000 steps without showing a block or pausing; the story stops there',
  },
})
