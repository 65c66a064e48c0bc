/**
 * A validation worker for the pool's tests (`createValidationPool({ worker })`): a real `worker_threads` thread
 * whose reply is chosen by the job's `file` field:
 * - `deep`: a reply nested 5,000 levels deep, which the worker can post but the main thread cannot deserialise
 *   (`messageerror`), as a valid manifest with one field nested that deep produced;
 * - `shape`: a reply that is not `{ok, outcome}`;
 * - `hang`: no reply at all (the job runs until the pool's time budget or its close);
 * - anything else: a well-formed outcome of a valid package.
 */
import { parentPort } from 'node:worker_threads'

// `on`, as the real worker: the thread stays alive after its reply, until the pool ends it.
parentPort.on('message', (job) => {
  if (job.file === 'hang') return
  if (job.file === 'shape') return parentPort.postMessage({ ok: true, outcome: 42 })
  let manifest = { title: 'The Inn' }
  if (job.file === 'deep') {
    const root = {}
    let o = root
    for (let i = 0; i < 5000; i++) {
      o.a = {}
      o = o.a
    }
    manifest = { title: 'The Inn', extra: root }
  }
  parentPort.postMessage({
    ok: true,
    outcome: {
      loads: true,
      valid: true,
      type: 'story',
      layout: 'packaged',
      manifest,
      diagnostics: [],
      signature: { status: 'unsigned' },
      integrity: {},
      cover: null,
    },
  })
})
