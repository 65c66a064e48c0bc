/**
 * The zod schema of `session.json` (`@spkg/manifest/schemas`), the source of `session.schema.json`.
 */
import { z } from 'zod'
import { JsonValueSchema } from './json-value-schema'

/** The canonical session file: an object of JSON values. */
export const SessionSchema = z.record(z.string(), JsonValueSchema).meta({
  id: 'Session',
  title: 'spkg session.json',
  description:
    'Session preparation variables; each valid key becomes a story variable before the entry part.',
})
