/**
 * The zod schema of the names map of a minified package (`META-PKG/names.json`, named by
 * `manifest.build.names_map`, written by `spkg pack --minify`): the source of the `NamesMap` type
 * and of the compiled check `parseNamesMapText` runs.
 */
import { z } from 'zod'

const names = (description: string) =>
  z.record(z.string(), z.string()).meta({ description: `${description}: short name → original name` })

/** The names map: short name → original name, per kind. */
export const NamesMapSchema = z
  .object({
    version: z.literal(1).meta({ description: 'names-map format version' }),
    variables: names('story variables'),
    functions: names('module functions, constants and passages').optional(),
    ids: names('explicit ids of headings, anchors and choice groups').optional(),
    sets: names('set declarations and their items (story language 1.1)').optional(),
  })
  .meta({ id: 'NamesMap', description: 'The names map of a minified spkg package (META-PKG/names.json).' })

/** The names map (`META-PKG/names.json`): short name → original name, per kind. */
export type NamesMap = z.infer<typeof NamesMapSchema>
