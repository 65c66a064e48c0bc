/**
 * Browser side of peek-blob.browser.test.ts: a cold quick look at a large File (cover and title),
 * counting the bytes read through `Blob.prototype.slice` and whether the File was read whole.
 */
import { peekPackage } from '../../src/index'

async function peekFile(url: string) {
  const file = new File([await (await fetch(url)).blob()], 'the-long-road.spkg')
  let sliced = 0
  let whole = false
  const { slice, arrayBuffer } = Blob.prototype
  Blob.prototype.slice = function (this: Blob, ...args: Parameters<Blob['slice']>) {
    const part = slice.apply(this, args)
    sliced += part.size
    return part
  }
  Blob.prototype.arrayBuffer = function (this: Blob) {
    if (this === file) whole = true
    return arrayBuffer.call(this)
  }
  try {
    const t = performance.now()
    const peek = await peekPackage(file)
    const cover = peek.ok && peek.manifest?.cover ? await peek.readBytes(peek.manifest.cover) : undefined
    const ms = performance.now() - t
    return {
      ok: peek.ok,
      title: peek.ok ? peek.manifest?.title : undefined,
      cover: cover?.length,
      size: file.size,
      sliced,
      whole,
      ms,
    }
  } finally {
    Blob.prototype.slice = slice
    Blob.prototype.arrayBuffer = arrayBuffer
  }
}

Object.assign(globalThis, { peekFile })
