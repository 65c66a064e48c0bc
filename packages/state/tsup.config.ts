import { defineConfig } from 'tsup'
import { libraryBuild } from '../../tools/tsup-base'

export default defineConfig(
  libraryBuild({
    index: 'src/index.ts',
    node: 'src/node.ts',
    'drivers/memory': 'src/drivers/memory.ts',
    'drivers/local-storage': 'src/drivers/local-storage.ts',
    'drivers/indexeddb': 'src/drivers/indexeddb.ts',
    'drivers/http': 'src/drivers/http.ts',
    'drivers/fs': 'src/node/fs-driver.ts',
    testing: 'src/testing.ts',
  }),
)
