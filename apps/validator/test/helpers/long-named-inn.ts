/**
 * Test helper: a copy of examples/crooked-inn with longer names, whose uses pay for their
 * names-map entries, so `spkg pack --minify` renames them.
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { writeTree } from './tree'

const EXAMPLE = resolve(__dirname, '../../../../examples/crooked-inn')
const text = (b: Uint8Array) => new TextDecoder().decode(b)

/**
 * The example story with longer names (`gold_coins`, `wolves_watching`, `#edge_of_the_dark_forest`): names
 * whose uses pay for their names-map entry, which the minifier renames (it keeps `gold` and `#edge`,
 * too short to pay).
 */
export function longNamedInn(cwd: string): string {
  const tree: Record<string, string | Uint8Array> = {}
  for (const f of [
    'manifest.json',
    'assets/cover.svg',
    'story/0001-inn.sty',
    'story/0002-road.sty',
    'story/0003-forest.sty',
  ])
    tree[f] = readFileSync(join(EXAMPLE, f))
  for (const f of ['story/0001-inn.sty', 'story/0002-road.sty', 'story/0003-forest.sty'])
    tree[f] = text(tree[f] as Uint8Array)
      .replace(/\bgold\b/g, 'gold_coins')
      .replace(/\$\{wolves\}|\{set wolves/g, (m) => m.replace('wolves', 'wolves_watching'))
      .replace(/\bedge\b/g, 'edge_of_the_dark_forest')
  return writeTree(join(cwd, 'inn'), tree)
}
