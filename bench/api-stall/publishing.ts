/**
 * api-stall's publishing and catalog attacks, each by its own creator and each measured by the
 * health prober while it runs:
 * - `huge-description`: a 41 KB package whose manifest `description` is 40 MiB, uploaded as a new version of a
 *   published story, then the same again 1.1 s later (the repeat reads the stored manifest back); then a moderator
 *   publishes the newest version (the huge one, if it was accepted) for the catalog and versions rows;
 * - `deep-nesting`: ten uploads of a 476-byte package whose manifest has one unknown field nested 5,000 deep, one every
 *   550 ms (inside 2/s), while another creator uploads a normal package every 2 s (their answer times are a row);
 * - `missing-parts`: an 837 KB package whose part links 400,000 parts that do not exist (diagnostics), twice;
 * - `versions-list`: the owner of the huge-description story lists its versions every 600 ms (100 a minute);
 * - `catalog`: anonymous `GET /catalog/stories` 10 a second.
 */
import { percentile } from './health-probe.ts'
import { deepFieldPackage, hugeDescriptionPackage, missingPartsPackage, normalPackage } from './packages.ts'

/** The creators and the moderator the attacks sign in as (dev-idp clients). */
export const BENCH_CLIENTS: Record<string, string[]> = {
  'bench-a': ['creator'],
  'bench-b': ['creator'],
  'bench-c': ['creator'],
  'bench-d': ['creator'],
  'bench-mod': ['moderator'],
}

export interface Attack {
  name: string
  /** Runs the attack; resolves when every request has its answer. */
  run(): Promise<void>
  /** What the attacker's requests got (status × count; 0 = no answer in 60 s), and any other figure. */
  report(): string
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** Counts statuses per kind of request. */
function tally() {
  const m = new Map<string, Map<string, number>>()
  return {
    add(kind: string, answer: { status: number; code?: string | undefined }) {
      const k = m.get(kind) ?? new Map<string, number>()
      const key = answer.code ? `${answer.status} ${answer.code}` : String(answer.status)
      k.set(key, (k.get(key) ?? 0) + 1)
      m.set(kind, k)
    },
    toString() {
      return [...m]
        .map(([kind, k]) => `${kind}: ${[...k].map(([s, n]) => `${s} × ${n}`).join(', ')}`)
        .join('; ')
    },
  }
}

/** Sets the stories up and returns the attacks, by name. */
export async function publishingAttacks(
  url: string,
  mintToken: (client: string) => Promise<string>,
  attackS: number,
): Promise<Map<string, Attack>> {
  const auth = async (client: string) => ({ authorization: `Bearer ${await mintToken(client)}` })
  // One at a time: the development provider resets parallel token requests.
  const a = await auth('bench-a')
  const b = await auth('bench-b')
  const c = await auth('bench-c')
  const d = await auth('bench-d')
  const mod = await auth('bench-mod')
  const request = async (path: string, init: RequestInit = {}) => {
    const t0 = performance.now()
    try {
      const r = await fetch(`${url}${path}`, { ...init, signal: AbortSignal.timeout(60_000) })
      const body = await r.arrayBuffer()
      let code: string | undefined
      if (r.status >= 400 && body.byteLength < 10_000_000) {
        try {
          code = JSON.parse(Buffer.from(body).toString()).code
        } catch {}
      }
      return { status: r.status, code, ms: performance.now() - t0, bytes: body.byteLength }
    } catch {
      return { status: 0, code: undefined, ms: performance.now() - t0, bytes: 0 }
    }
  }
  const upload = (headers: Record<string, string>, slug: string, bytes: Uint8Array) =>
    request(`/api/stories/${slug}/versions`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/vnd.spkg+zip' },
      body: Buffer.from(bytes),
    })
  for (const [h, slug] of [
    [a, 'stall-a'],
    [b, 'stall-b'],
    [c, 'stall-c'],
    [d, 'stall-d'],
  ] as const) {
    const r = await request('/api/stories', {
      method: 'POST',
      headers: { ...h, 'content-type': 'application/json' },
      body: JSON.stringify({ slug, title: slug, author: 'A', genre: 'g', content: '', type: 'story' }),
    })
    if (r.status !== 201) throw new Error(`create ${slug}: ${r.status}`)
  }
  // One published story for the catalog and the versions list (the huge package, if accepted, is its newest version).
  const first = await upload(a, 'stall-a', normalPackage(1, '0.9.0'))
  const published = await request('/catalog/stories/stall-a', {
    method: 'PUT',
    headers: { ...mod, 'content-type': 'application/json' },
    body: JSON.stringify({ published: true }),
  })
  if (first.status !== 201 || published.status !== 200)
    throw new Error(`seed stall-a: upload ${first.status}, publish ${published.status}`)
  // Made before the clock starts.
  const huge = hugeDescriptionPackage(1)
  const deep = Array.from({ length: 10 }, (_, i) => deepFieldPackage(2, `1.0.${i}`))
  const normal = Array.from({ length: Math.ceil(attackS / 2) + 4 }, (_, i) => normalPackage(3, `1.0.${i}`))
  const missing = missingPartsPackage(4)
  const attacks = new Map<string, Attack>()

  {
    const t = tally()
    const times: number[] = []
    attacks.set('huge-description', {
      name: 'huge-description',
      async run() {
        for (let i = 0; i < 2; i++) {
          const r = await upload(a, 'stall-a', huge)
          t.add(i === 0 ? 'upload' : 'repeat', r)
          times.push(r.ms)
          await sleep(1100)
        }
        const p = await request('/catalog/stories/stall-a', {
          method: 'PUT',
          headers: { ...mod, 'content-type': 'application/json' },
          body: JSON.stringify({ published: true }),
        })
        t.add('publish', p)
      },
      report: () => `${t}; answer ${times.map((x) => `${(x / 1000).toFixed(1)} s`).join(', ')}`,
    })
  }
  {
    const t = tally()
    const other: number[] = []
    attacks.set('deep-nesting', {
      name: 'deep-nesting',
      async run() {
        const sends: Promise<void>[] = []
        let stop = false
        const others = (async () => {
          for (let i = 0; !stop && i < normal.length; i++) {
            const r = await upload(c, 'stall-c', normal[i] as Uint8Array)
            t.add('other creator', r)
            other.push(r.ms)
            await sleep(2000)
          }
        })()
        for (const pkg of deep) {
          sends.push(upload(b, 'stall-b', pkg).then((r) => t.add('deep', r)))
          await sleep(550)
        }
        await Promise.all(sends)
        stop = true
        await others
      },
      report: () =>
        `${t}; other creator's answer p50 ${percentile(other, 50).toFixed(0)} ms, max ${Math.max(...other).toFixed(0)} ms`,
    })
  }
  {
    const t = tally()
    const info: string[] = []
    attacks.set('missing-parts', {
      name: 'missing-parts',
      async run() {
        for (let i = 0; i < 2; i++) {
          const r = await upload(d, 'stall-d', missing)
          t.add('upload', r)
          info.push(`${(r.ms / 1000).toFixed(1)} s, ${(r.bytes / 1024).toFixed(1)} KiB`)
          await sleep(1100)
        }
      },
      report: () => `${t}; answers ${info.join('; ')}`,
    })
  }
  {
    const t = tally()
    const times: number[] = []
    attacks.set('versions-list', {
      name: 'versions-list',
      async run() {
        const sends: Promise<void>[] = []
        for (let i = 0; i < (attackS * 1000) / 600; i++) {
          sends.push(
            request('/api/stories/stall-a/versions', { headers: a }).then((r) => {
              t.add('list', r)
              times.push(r.ms)
            }),
          )
          await sleep(600)
        }
        await Promise.all(sends)
      },
      report: () =>
        `${t}; answer p50 ${percentile(times, 50).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`,
    })
  }
  {
    const t = tally()
    const sizes: number[] = []
    attacks.set('catalog', {
      name: 'catalog',
      async run() {
        const sends: Promise<void>[] = []
        for (let i = 0; i < attackS * 10; i++) {
          sends.push(
            request('/catalog/stories?page=1').then((r) => {
              t.add('page', r)
              sizes.push(r.bytes)
            }),
          )
          await sleep(100)
        }
        await Promise.all(sends)
      },
      report: () => `${t}; page ${(Math.max(...sizes) / 1024).toFixed(1)} KiB at most`,
    })
  }
  return attacks
}
