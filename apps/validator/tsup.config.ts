import { defineConfig } from 'tsup'
import { commandBuild } from '../../tools/tsup-base'

// `bin`: the command; `validate`: the library entry (`@spkg/validator/validate`), with its types.
export default defineConfig(
  commandBuild({ bin: 'src/bin.ts', validate: 'src/library.ts' }, { validate: 'src/library.ts' }),
)
