/**
 * A `fetch` for Node that refuses to connect to loopback, private, link-local, multicast,
 * reserved or cloud-metadata addresses (a DNS-rebinding guard). The check runs in the `lookup`
 * the socket connects through, so it applies to the very address connected to, not to an earlier
 * resolution; an IP literal (never looked up) is checked before the request. One request, no
 * redirects followed (a 3xx is returned as it is, as `redirect: 'manual'` asks), HTTPS only.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns'
import { request } from 'node:https'
import { BlockList, isIP } from 'node:net'
import { Readable } from 'node:stream'
import { rootCertificates } from 'node:tls'
import { ADDRESS_REFUSED } from '../address-refused'

/** Options of {@link createGuardedFetch}. */
export interface GuardedFetchOptions {
  /** Lifts the guard (tests, a private host): the embedder's explicit choice. @default false */
  allowPrivateAddresses?: boolean
  /** Extra CA certificates (PEM) to trust besides Node's (`NODE_EXTRA_CA_CERTS` works too). */
  ca?: string | string[]
}

const blocked = new BlockList()
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, and the cloud metadata address 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, bits, 'ipv4')
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7], // unique local, including fd00:ec2::254 (a metadata address)
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, bits, 'ipv6')

/** The IPv4 address an IPv4-mapped or NAT64 IPv6 address carries. */
function embeddedV4(address: string): string | undefined {
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address)
  if (!m) return undefined
  if (m[1]) return m[1]
  const hi = Number.parseInt(m[2]!, 16)
  const lo = Number.parseInt(m[3]!, 16)
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
}

/** True for an address the guard refuses. */
export function isPrivateAddress(address: string): boolean {
  const v4 = embeddedV4(address)
  if (v4) return blocked.check(v4, 'ipv4')
  const family = isIP(address)
  if (family === 0) return true
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

function refusal(host: string, address: string): Error {
  return Object.assign(
    new Error(
      `${host} resolves to ${address}, a loopback, private, link-local or metadata address; no connection was made`,
    ),
    { code: ADDRESS_REFUSED },
  )
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void

function guardedLookup(hostname: string, options: LookupAllOptions | object, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, [])
    const bad = addresses.find((a) => isPrivateAddress(a.address))
    if (bad) return callback(refusal(hostname, bad.address), [])
    if ((options as { all?: boolean }).all) return callback(null, addresses)
    const first = addresses[0]
    if (!first)
      return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), [])
    callback(null, first.address, first.family)
  })
}

const NULL_BODY = new Set([101, 204, 205, 304])

/**
 * Makes the guarded fetch: see the module comment.
 *
 * @example
 * const result = await importRepository(url, { fetch: createGuardedFetch() })
 */
export function createGuardedFetch(options: GuardedFetchOptions = {}): typeof fetch {
  const guard = options.allowPrivateAddresses !== true
  // A `ca` option replaces Node's trusted roots: keep them, and add the extra ones.
  const ca = options.ca
    ? [...rootCertificates, ...(Array.isArray(options.ca) ? options.ca : [options.ca])]
    : undefined
  const guarded = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
    if (url.protocol !== 'https:') throw new TypeError(`only https: URLs are fetched, not ${url.protocol}`)
    const hostname = url.hostname.replace(/^\[|\]$/g, '')
    if (guard && isIP(hostname) && isPrivateAddress(hostname)) throw refusal(hostname, hostname)
    init.signal?.throwIfAborted()
    const headers: Record<string, string> = {}
    new Headers(init.headers).forEach((v, k) => {
      headers[k] = v
    })
    headers['user-agent'] ??= 'spkg-repo-import'
    return new Promise<Response>((resolve, reject) => {
      const req = request(
        url,
        {
          method: init.method ?? 'GET',
          headers,
          ...(init.signal ? { signal: init.signal } : {}),
          ...(guard ? { lookup: guardedLookup as never } : {}),
          ...(ca ? { ca } : {}),
          agent: false,
        },
        (res) => {
          const status = res.statusCode ?? 0
          const h = new Headers()
          for (const [k, v] of Object.entries(res.headers))
            if (v !== undefined) for (const one of Array.isArray(v) ? v : [v]) h.append(k, one)
          const empty = NULL_BODY.has(status) || init.method === 'HEAD'
          if (empty) res.resume()
          try {
            resolve(
              new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
                status,
                headers: h,
              }),
            )
          } catch (e) {
            res.destroy()
            reject(e)
          }
        },
      )
      req.on('error', reject)
      req.end()
    })
  }
  return guarded as typeof fetch
}
