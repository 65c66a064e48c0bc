import { defineConfig } from 'tsup'
import { commandBuild } from '../../tools/tsup-base'

// `bin`: the command; `node`: the library entry, with its types.
// `check-worker`: the worker thread of whole-folder checks (background-check.ts loads it).
export default defineConfig(
  commandBuild(
    { bin: 'src/node/bin.ts', node: 'src/node.ts', 'check-worker': 'src/node/check-worker.ts' },
    { node: 'src/node.ts' },
  ),
)
