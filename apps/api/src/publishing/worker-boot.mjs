// Starts a TypeScript worker: registers tsx in this thread (the API runs from its sources), then loads the
// module named by `workerData.entry`. Used by validation-pool.ts.
import { workerData } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

register()
await import(workerData.entry)
