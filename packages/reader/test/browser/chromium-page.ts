/**
 * Browser side of chromium.browser.test.ts: runs the web backend's DecompressionStream inflater,
 * the chooser and the whole open pipeline in Chromium on inputs built in Node, and returns plain
 * results for Node to check.
 */

import { sha256Hex, sha256HexSync } from '@spkg/integrity'
import { inflateRawStream, inflateWasmReady, loadInflateWasm } from '@spkg/zip'
import { openPackage } from '../../src/index'
import { defaultWebOptions } from '../../src/zip/backend'

/** What Node sends: base64 byte strings. */
export interface ChromiumInput {
  text: string
  packed: string
  bomb: string
  good: string
  bombPackage: string
  badCrcPackage: string
  random: string
}

const b64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0))
const summary = (r: { ok: boolean; reason?: string; produced?: number }) =>
  r.ok ? { ok: true } : { ok: false, reason: r.reason, produced: r.produced }
const fatal = (d: ReadonlyArray<{ code: string; severity: string }>) =>
  d.filter((x) => x.severity === 'fatal').map((x) => x.code)

async function run(input: ChromiumInput) {
  const text = b64(input.text)
  const packed = b64(input.packed)
  const bomb = b64(input.bomb)
  const out: Record<string, unknown> = {}
  out.options = defaultWebOptions()
  const roomy = await inflateRawStream(packed, text.length, 50 * 2 ** 20)
  const tight = await inflateRawStream(packed, text.length, text.length + 10)
  out.roomy = roomy.ok && roomy.data.length === text.length && roomy.data.every((b, i) => b === text[i])
  out.tight = tight.ok && tight.data.every((b, i) => b === text[i])
  out.longer = summary(await inflateRawStream(packed, text.length - 1, 50 * 2 ** 20))
  out.shorter = summary(await inflateRawStream(packed, text.length + 1, text.length + 100))
  out.corrupt = summary(await inflateRawStream(new Uint8Array([0xff, 0xff, 0xff, 0xff]), 10, 1000))
  out.truncated = summary(
    await inflateRawStream(packed.subarray(0, packed.length >> 1), text.length, 2 ** 20),
  )
  out.bombs = []
  for (const limit of [2 ** 20, 8 * 2 ** 20, 30 * 2 ** 20])
    (out.bombs as unknown[]).push({ limit, ...summary(await inflateRawStream(bomb, 256 * 2 ** 20, limit)) })
  Object.assign(out, await openGood(input.good))
  out.bombPackage = fatal((await openPackage(b64(input.bombPackage))).diagnostics)
  out.badCrcPackage = fatal((await openPackage(b64(input.badCrcPackage))).diagnostics)
  const random = b64(input.random)
  out.sha = [] as Array<[string, string]>
  for (const n of [0, 55, 56, 64, 1000, 20_000, random.length])
    (out.sha as Array<[string, string]>).push([
      sha256HexSync(random.subarray(0, n)),
      await sha256Hex(random.subarray(0, n)),
    ])
  return out
}

/** Opens the good package (small parts inflated in WebAssembly where it loads, large ones streamed). */
async function openGood(good: string) {
  const opened = await openPackage(b64(good))
  return {
    wasm: { loaded: await loadInflateWasm(), ready: inflateWasmReady() },
    good: { ok: opened.ok, fatal: fatal(opened.diagnostics) },
    goodText: opened.ok ? await opened.package.readText('story/1-p.sty') : undefined,
  }
}

Object.assign(globalThis, { runReader: run, openGood })
