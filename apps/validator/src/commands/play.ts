/**
 * `spkg play`: plays a story (a `.spkg`, a story folder or one `.sty` file) in the terminal,
 * scripted with `--choose`, or as N seeded random walks; saves and resumes reading states in the
 * `@spkg/state` format. Before play starts it reports what `spkg validate` finds in the story
 * (the reader's findings and the story checks, infos left out); play then goes on unless the
 * reader refuses the package (a fatal problem), and the exit code is 1 when there was an error.
 */
import type { Command } from '../cli-types'
import { DECRYPTION_KEY_OPTION, FORMAT_OPTION, HOST_NAMESPACE_OPTION, LANG_OPTION } from './options'

/** `spkg play`: see the module comment and `--help`. */
export const play: Command = {
  path: ['play'],
  summary: 'play a story in the terminal, scripted with --choose, or as seeded random walks',
  usage:
    'play <pkg|folder|file.sty|repo-url> [--seed N] [--choose 1,map,>part.sty:scene] [--session file] [--save file] [--resume file] [--format text|json] [--random-walk N] [--host-namespace ns]... [--lang 1.0|1.1]',
  description: `Plays a .spkg archive, a story folder (with or without manifest.json, as 'spkg pack' would
pack it), one .sty file (with the .xty modules and media beside it) or a repository URL. Before play starts it prints
what 'spkg validate' finds in the story (errors and warnings, with line and column); play then
goes on, unless the package cannot be opened at all.
Without --choose it asks at each pause (type the number the menu shows, an option id, or '>' and a
link target; 'q' or end of input stops). With --choose each item answers the next pause the same
way: a menu number, an option id, or '>' and the link's resolved archive target; play stops at
the first pause left unanswered or at the end. A number is always a menu number: '=' names an
option by its id, so '=2' is the option whose id is 2 (a positional id) wherever the menu shows it.
--format json prints the event stream, one JSON object per line (a story that cannot be read is
one fatal diagnostic line, pkg/fetch-failed or pkg/remote-changed, then exit 2). --save writes the reading state
where play stopped, in the @spkg/state format that --resume reads; in text a resume's replay is
framed by '-- replay --' and '-- resumed --' lines.
--random-walk N plays N seeded random playthroughs (walk i uses story seed S+i, S from --seed;
with --explore each pause prefers answers no earlier walk took)
and reports the endings reached (one per '-> END', with the ways into each listed apart), options
never offered, sections never reached, runtime diagnostics and the longest path.
A story whose manifest "requires" a host namespace plays with --host-namespace (its host
functions are absent here: each call reports story/host-error).
--lang 1.1 reads a story folder or .sty file at that story-language version when no manifest
says which (a manifest's "story_lang" wins, and a --lang that differs from it is a usage error; a
package is always read at its manifest's version).
Exits 1 when the story has errors or an answer is refused.`,
  positionals: [1, 1],
  options: {
    seed: { type: 'string', valueName: '<N>', description: 'PRNG seed (beats {seed} in the story)' },
    choose: {
      type: 'string',
      short: 'c',
      valueName: '<answers>',
      description: 'comma-separated answers, one per pause: menu number, option id, =id or >target',
    },
    session: {
      type: 'string',
      valueName: '<file>',
      description: 'session.json to use instead of the story’s',
    },
    save: {
      type: 'string',
      valueName: '<file>',
      description: 'write the reading state here when play stops',
    },
    resume: { type: 'string', valueName: '<file>', description: 'resume from a state written by --save' },
    format: FORMAT_OPTION,
    'random-walk': { type: 'string', valueName: '<N>', description: 'play N seeded random playthroughs' },
    explore: {
      type: 'boolean',
      description: 'random walk: prefer answers no earlier walk took (coverage first)',
    },
    'max-choices': {
      type: 'string',
      valueName: '<N>',
      description: 'random walk: stop a walk after N answers (default 1000)',
    },
    'decryption-key': DECRYPTION_KEY_OPTION,
    'host-namespace': HOST_NAMESPACE_OPTION,
    lang: LANG_OPTION,
  },
  examples: [
    'spkg play examples/crooked-inn',
    'spkg play platform.sty --choose 1,1 --format json',
    'spkg play my-story --choose ">story/0003-forest.sty:edge" --save state.json',
    'spkg play my-story --resume state.json --choose 1',
    'spkg play my-story --random-walk 500 --seed 7',
  ],
  run: (ctx) => import('./play-run').then((m) => m.run(ctx)),
}
