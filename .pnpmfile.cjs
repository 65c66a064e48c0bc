// pnpm hooks for this workspace (https://pnpm.io/pnpmfile).
//
// beforePacking runs on the package.json that `pnpm pack` and `pnpm publish` put in a tarball (the file on
// disk is unchanged). Inside the monorepo, the `@spkg/source` export condition points at `./src/*.ts` so
// tests and `pnpm spkg` read TypeScript without a build; the tarball has no `src/`, so the condition is
// removed there. devDependencies go too: they name the private `@spkg/test-utils` and are never installed
// by a consumer. `tools/check-packaging.ts` checks the packed package.json of every published package.
'use strict'

const SOURCE_CONDITION = '@spkg/source'

function stripCondition(target) {
  if (target === null || typeof target !== 'object') return target
  if (Array.isArray(target)) return target.map(stripCondition)
  const out = {}
  for (const [key, value] of Object.entries(target)) {
    if (key !== SOURCE_CONDITION) out[key] = stripCondition(value)
  }
  return out
}

function beforePacking(pkg) {
  if (pkg.exports !== undefined) pkg.exports = stripCondition(pkg.exports)
  delete pkg.devDependencies
  return pkg
}

module.exports = { hooks: { beforePacking } }
