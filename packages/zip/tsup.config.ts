import { defineConfig } from 'tsup'
import { libraryBuild } from '../../tools/tsup-base'

export default defineConfig(libraryBuild({ index: 'src/index.ts' }))
