import { defineConfig } from 'tsup'
import { libraryBuild } from '../../tools/tsup-base'

export default defineConfig(
  libraryBuild({
    index: 'src/index.ts',
    sign: 'src/sign.ts',
    encrypt: 'src/encrypt.ts',
    node: 'src/node.ts',
    'ed25519-noble': 'src/ed25519-noble.ts',
  }),
)
