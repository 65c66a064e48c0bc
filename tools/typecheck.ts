/**
 * `pnpm typecheck`: every TypeScript file of the repository (the packages' and apps' sources, tests and examples,
 * the benchmarks, the tools and the configs) in three `tsc` programs, run side by side; exits 1 when one fails.
 *
 * It ran `tsc` once per package (14 programs, 126 s on 2 cores): each program parsed and checked zod, @types/node,
 * Fastify's types and the sources of every package it imports again, manifest's ten times. The three programs
 * (about 33 s of CPU together) are apart only where one must not see another's declarations:
 * tsconfig.typecheck.json (tools, configs, packages, apps but the two below), tsconfig.typecheck-api.json (apps/api
 * and bench/: the API augments Fastify's types), apps/player/tsconfig.json (`vite/client` types).
 * tools/typecheck.test.ts checks that they cover every file of each package's own tsconfig.json, which
 * `pnpm --filter <package> typecheck` still runs alone.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')

/** Longest first. */
export const TYPECHECK_PROGRAMS = [
  'tsconfig.typecheck-api.json',
  'apps/player/tsconfig.json',
  'tsconfig.typecheck.json',
]

const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')

function check(project: string): Promise<{ project: string; ok: boolean; out: string; seconds: number }> {
  const started = performance.now()
  return new Promise((resolve) => {
    const args = [tsc, '-p', project, ...(process.stdout.isTTY ? ['--pretty'] : [])]
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d: Buffer) => {
      out += d
    })
    child.stderr.on('data', (d: Buffer) => {
      out += d
    })
    child.on('close', (code) => {
      resolve({ project, ok: code === 0, out, seconds: (performance.now() - started) / 1000 })
    })
  })
}

if (import.meta.filename === process.argv[1]) {
  const results = await Promise.all(TYPECHECK_PROGRAMS.map(check))
  for (const r of results) {
    console.log(`tsc -p ${r.project}: ${r.ok ? 'ok' : 'FAILED'} (${r.seconds.toFixed(1)} s)`)
    if (r.out) process.stdout.write(r.out.endsWith('\n') ? r.out : `${r.out}\n`)
  }
  if (results.some((r) => !r.ok)) process.exitCode = 1
}
