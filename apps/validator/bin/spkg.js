#!/usr/bin/env node
// The `spkg` command. A file of the source tree (not of dist/), so that pnpm links the bin of a
// workspace that has not been built yet without a warning; it runs the built CLI.
try {
  await import('../dist/bin.js')
} catch (e) {
  if (e?.code !== 'ERR_MODULE_NOT_FOUND' || !String(e.message).includes('dist/bin.js')) throw e
  process.stderr.write(
    "spkg: the command is not built (no dist/bin.js); run 'pnpm build', or 'pnpm -s spkg' from the sources\n",
  )
  process.exitCode = 2
}
