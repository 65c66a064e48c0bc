/**
 * The worker thread that checks whole story folders (`checkStory`), so that the server's own
 * thread stays free for keystrokes and requests while a large folder is checked. One message in,
 * one message out: `{id, input, hint}` → `{id, found}` or `{id, error}`.
 */
import { parentPort } from 'node:worker_threads'
import type { CheckStoryInput } from '@spkg/story'
import { checkWithLangHint, type LangHint } from '../analysis/lang-hint.ts'

parentPort?.on('message', (m: { id: number; input: CheckStoryInput; hint?: LangHint }) => {
  try {
    parentPort?.postMessage({ id: m.id, found: checkWithLangHint(m.input, m.hint) })
  } catch (e) {
    parentPort?.postMessage({ id: m.id, error: (e as Error).message })
  }
})
