/**
 * Reads standard input line by line for the interactive prompt of `spkg play`.
 */

/** A reader of lines; `undefined` at the end of input. */
export interface LineReader {
  readLine(): Promise<string | undefined>
}

/** Wraps a stream of chunks (process stdin, or a test's input) as a {@link LineReader}. */
export function createLineReader(input: AsyncIterable<Uint8Array | string>): LineReader {
  const decoder = new TextDecoder()
  const iterator = input[Symbol.asyncIterator]()
  let buffer = ''
  let done = false
  return {
    async readLine() {
      for (;;) {
        const nl = buffer.indexOf('\n')
        if (nl >= 0) {
          const line = buffer.slice(0, nl).replace(/\r$/, '')
          buffer = buffer.slice(nl + 1)
          return line
        }
        if (done) {
          if (buffer === '') return undefined
          const rest = buffer
          buffer = ''
          return rest
        }
        const chunk = await iterator.next()
        if (chunk.done) {
          done = true
          buffer += decoder.decode()
        } else
          buffer +=
            typeof chunk.value === 'string' ? chunk.value : decoder.decode(chunk.value, { stream: true })
      }
    },
  }
}
