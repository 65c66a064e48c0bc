/**
 * Source text checks shared by parts and modules: decoding bytes and `story/encoding`. Internal.
 */
import type { ParseContext } from './context.ts'

/**
 * Turns the input into text. Bytes are decoded as UTF-8; invalid UTF-8, NUL and lone
 * surrogates are reported once as `story/encoding` (at the first bad character) and replaced by
 * U+FFFD so that parsing can go on.
 */
export function sourceText(ctx: ParseContext, source: string | Uint8Array): string {
  let text: string
  let invalidUtf8 = false
  if (typeof source === 'string') text = source
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(source)
    } catch {
      invalidUtf8 = true
      text = new TextDecoder('utf-8').decode(source)
    }
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  const bad = invalidUtf8 ? /[\0\ufffd]|\p{Cs}/u : /\0|\p{Cs}/u
  const m = bad.exec(text)
  if (m) {
    const before = text.slice(0, m.index)
    const lines = before.split(/\r\n|\r|\n/)
    const last = lines[lines.length - 1] ?? ''
    ctx.report(
      'story/encoding',
      m[0] === '\0'
        ? 'the file contains a NUL character; save it as plain UTF-8 text'
        : 'the file is not valid UTF-8 text; save it as UTF-8',
      { line: lines.length, column: [...last].length + 1 },
    )
    text = text.replace(/\0|\p{Cs}/gu, '\ufffd')
  }
  return text
}
