/**
 * The worker thread that checks whole story folders (`checkStory`), so that the server's own
 * thread stays free for keystrokes and requests while a large folder is checked. One message in,
 * one message out: `{id, input}` → `{id, found}` or `{id, error}`.
 */
import { parentPort } from 'node:worker_threads'
import { type CheckStoryInput, checkStory } from '@spkg/story'

parentPort?.on('message', (m: { id: number; input: CheckStoryInput }) => {
  try {
    parentPort?.postMessage({ id: m.id, found: checkStory(m.input) })
  } catch (e) {
    parentPort?.postMessage({ id: m.id, error: (e as Error).message })
  }
})
