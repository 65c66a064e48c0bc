/** `pnpm --filter @spkg/zip build:wasm`: regenerates src/inflate-wasm-binary.ts from wasm/inflate.ts. */
import { writeFileSync } from 'node:fs'
import { compileInflateWasm, renderBinaryModule } from './compile'

const out = new URL('../src/inflate-wasm-binary.ts', import.meta.url)
const bytes = await compileInflateWasm()
writeFileSync(out, renderBinaryModule(bytes))
console.log(`wrote ${out.pathname} (${bytes.length} bytes of WebAssembly)`)
