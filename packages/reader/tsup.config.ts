import { defineConfig } from 'tsup'
import { libraryBuild } from '../../tools/tsup-base'

export default defineConfig(
  libraryBuild({ index: 'src/index.ts', node: 'src/node.ts', 'ed25519-noble': 'src/ed25519-noble.ts' }),
)
