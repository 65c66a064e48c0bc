/**
 * `spkg map <folder|pkg> -o map.svg|map.html`: draws the story (parts, scenes and choice groups as
 * nodes; flow, options, jumps, gates and links as edges; endings marked), laid out by Graphviz,
 * one cluster per part. With `--random-walk N` each node and edge shows how many walks reached it.
 */
import type { Command } from '../cli-types'
import { DECRYPTION_KEY_OPTION, HOST_NAMESPACE_OPTION, LANG_OPTION } from './options'

/** `spkg map`: see the module comment and `--help`. */
export const map: Command = {
  path: ['map'],
  summary: 'draw a map of the story (SVG, zoomable HTML, DOT or JSON), optionally coloured by random walks',
  usage:
    'map <pkg|folder|file.sty> -o <map.svg|map.html|map.dot|map.json> [--random-walk N] [--seed N] [--lang 1.0|1.1]',
  description: `Draws the story of a package, a story folder or one .sty file: each part is a cluster holding
its start, its scenes (headings) and its choice groups; edges are the flow in reading order, the options
of each group (labelled), jumps (dashed), gates (bold) and links (dotted), and in a 1.1 story tunnel
calls (dashed orange, open diamond) and threads (dotted blue) with a legend; END nodes mark the endings.
The output format follows the extension of -o: .svg, .html (the SVG in a page with wheel zoom and drag
to pan), .dot (the Graphviz source) or .json (the graph as data).
--random-walk N plays N seeded random walks (walk i with story seed S+i, S from --seed) and labels each
node and edge with the number of walks that reached it: never-reached ones are red and dashed.
--lang 1.1 reads a story folder or .sty file at that story-language version when no manifest
says which (a manifest's "story_lang" wins, and a --lang that differs from it is a usage error; a
package is always read at its manifest's version).
Exits 1 when the story cannot be read.`,
  positionals: [1, 1],
  options: {
    output: { type: 'string', short: 'o', valueName: '<file>', description: 'where to write the map' },
    'random-walk': { type: 'string', valueName: '<N>', description: 'colour by N seeded random walks' },
    seed: { type: 'string', valueName: '<N>', description: 'first story seed of the walks (default 0)' },
    'decryption-key': DECRYPTION_KEY_OPTION,
    'host-namespace': HOST_NAMESPACE_OPTION,
    lang: LANG_OPTION,
  },
  examples: [
    'spkg map examples/crooked-inn -o inn.svg',
    'spkg map crooked-inn.spkg -o inn.html --random-walk 200',
  ],
  run: (ctx) => import('./map-run').then((m) => m.runMap(ctx)),
}
