/**
 * The container image and the compose file (apps/api/Dockerfile, deploy/). No container builder runs on the test
 * machines (no Docker; buildah/podman would install from Debian but cannot pull the base image offline), so this
 * checks their invariants: a multi-stage build on an exactly pinned slim Node 20 base, a pruned production install,
 * no source maps, a non-root user and a HEALTHCHECK on /api/health; every setting of the README's configuration
 * table in compose.yaml with values the API accepts; two API instances behind nginx, whose configuration nginx
 * itself accepts.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config'

const root = new URL('../../../', import.meta.url)
const read = (path: string) => readFileSync(new URL(path, root), 'utf8')
const dockerfile = read('apps/api/Dockerfile')
const dockerignore = read('apps/api/Dockerfile.dockerignore')
const compose = read('deploy/compose.yaml')
const nginxConf = read('deploy/nginx.conf')

/** Dockerfile instructions, continuation lines joined, comments dropped. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'))

/** The variables of the README's configuration table. */
function readmeSettings(): string[] {
  const readme = read('apps/api/README.md')
  const section = readme.slice(
    readme.indexOf('## Configuration'),
    readme.indexOf('\n## ', readme.indexOf('## Configuration') + 5),
  )
  return [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1] as string)
}

/** The `x-api-env` block of compose.yaml as an environment (quotes and comments removed). */
function composeApiEnv(): Record<string, string> {
  const start = compose.indexOf('x-api-env: &api-env\n')
  expect(start).toBeGreaterThanOrEqual(0)
  const block = compose.slice(start).split('\n').slice(1)
  const env: Record<string, string> = {}
  for (const line of block) {
    if (!line.startsWith('  ')) break
    const m = /^ {2}([A-Z][A-Z0-9_]*): ?(.*)$/.exec(line)
    if (!m) continue
    let value = (m[2] as string).replace(/\s+#.*$/, '').trim()
    if (/^".*"$/.test(value)) value = value.slice(1, -1)
    env[m[1] as string] = value
  }
  return env
}

describe('apps/api/Dockerfile', () => {
  const froms = instructions.filter((l) => /^FROM /i.test(l))
  const lastStage = instructions.slice(instructions.lastIndexOf(froms[froms.length - 1] as string))

  it('is multi-stage on an exactly pinned slim Node 20 base', () => {
    expect(froms.length).toBeGreaterThanOrEqual(2)
    for (const from of froms)
      expect(from).toMatch(/^FROM node:20\.\d+\.\d+-bookworm-slim(@sha256:[0-9a-f]{64})? AS [a-z]+$/)
  })

  it('installs from the lockfile and deploys a pruned production install without source maps', () => {
    expect(instructions.some((l) => /pnpm install --frozen-lockfile/.test(l))).toBe(true)
    const deploy = instructions.find((l) => /pnpm --filter @spkg\/api deploy/.test(l))
    expect(deploy).toMatch(/ --prod /)
    expect(deploy).toMatch(/find \/out -name '\*\.map' -type f -delete/)
    // Only the built output enters the runtime stage.
    expect(lastStage.filter((l) => /^COPY /.test(l))).toEqual(['COPY --from=build /out /app'])
  })

  it('runs as a non-root user with a HEALTHCHECK on /api/health, production settings, no source condition', () => {
    const user = lastStage.filter((l) => /^USER /.test(l)).pop()
    expect(user).toBeDefined()
    expect(user).not.toMatch(/^USER (root|0)(:|$)/)
    const health = lastStage.find((l) => /^HEALTHCHECK /.test(l))
    expect(health).toMatch(/\/api\/health'/)
    expect(lastStage.join('\n')).toMatch(/NODE_ENV=production/)
    const cmd = lastStage.find((l) => /^CMD /.test(l)) as string
    // The built API (apps/api/build.ts), copied into the image next to the production install.
    expect(JSON.parse(cmd.slice(4))).toEqual(['node', 'dist/bin/server.mjs'])
    expect(
      instructions.some((l) => /pnpm --filter @spkg\/api build .*cp -r apps\/api\/dist \/out\/dist/.test(l)),
    ).toBe(true)
  })

  it('builds the web player and serves it from the image (PLAYER_DIR)', () => {
    const build = instructions.find((l) => /pnpm --filter @spkg\/player build/.test(l))
    expect(build).toMatch(/cp -r apps\/player\/dist \/out\/player/)
    expect(lastStage.join('\n')).toMatch(/PLAYER_DIR=\/app\/player/)
    expect(composeApiEnv().PLAYER_DIR).toBe('/app/player')
  })

  it('keeps host artefacts out of the build context', () => {
    for (const pattern of ['**/node_modules', '**/dist', '**/*.map', '.git', '**/.env'])
      expect(dockerignore.split('\n')).toContain(pattern)
  })
})

describe('deploy/compose.yaml', () => {
  it('shows every setting of the README configuration table', () => {
    const settings = readmeSettings()
    expect(settings.length).toBeGreaterThan(30)
    expect(settings).toContain('METRICS_PORT')
    const env = composeApiEnv()
    const missing = settings.filter((s) => !(s in env))
    expect(missing).toEqual([])
  })

  it('gives the API settings it accepts in production', () => {
    const config = loadConfig(composeApiEnv())
    expect(config.isProduction).toBe(true)
    expect(config.metricsPort).toBe(9464)
    expect(config.storage.driver).toBe('s3')
    expect(config.databaseUrl).toMatch(/^postgres:\/\/.+@postgres:5432\//)
    expect(config.redisUrl).toBe('redis://redis:6379/0')
  })

  it('runs PostgreSQL, Redis, an S3-compatible store, two API instances and nginx, images pinned', () => {
    for (const service of ['postgres', 'redis', 'minio', 'api-1', 'api-2', 'nginx'])
      expect(compose).toMatch(new RegExp(`^ {2}${service}:$`, 'm'))
    expect(compose.match(/^ {4}<<: \*api$/gm)?.length).toBe(2)
    for (const m of compose.matchAll(/^\s+image: (\S+)$/gm)) {
      const image = m[1] as string
      if (image === 'spkg-api:local') continue
      expect(image).toMatch(/:[\w.-]*\d[\w.-]*$/)
      expect(image).not.toMatch(/:latest$/)
    }
    expect(compose).toMatch(/\.\/nginx\.conf:\/etc\/nginx\/nginx\.conf:ro/)
    expect(compose).toMatch(/\/api\/health\/ready/)
  })
})

const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => spawnSync(p, ['-v']).status === 0)

describe('deploy/nginx.conf', () => {
  it('balances over both instances and keeps /metrics out', () => {
    expect(nginxConf).toMatch(/server api-1:3000/)
    expect(nginxConf).toMatch(/server api-2:3000/)
    expect(nginxConf).toMatch(/location = \/metrics \{ return 404; \}/)
  })

  it.skipIf(!nginx)('is accepted by nginx -t (instance names replaced by loopback)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spkg-nginx-'))
    try {
      const conf = nginxConf
        .replace(/api-[12]:3000/g, '127.0.0.1:3000')
        .replace(/resolver [^;]+;/, '')
        .replace('worker_processes auto;', `worker_processes 1;\npid ${dir}/nginx.pid;`)
      writeFileSync(join(dir, 'nginx.conf'), conf)
      const r = spawnSync(
        nginx as string,
        ['-t', '-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')],
        {
          encoding: 'utf8',
          timeout: 20_000,
        },
      )
      expect(r.stderr).toMatch(/test is successful/)
      expect(r.status).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
