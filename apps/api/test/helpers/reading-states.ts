/**
 * Reading-state bodies for the limit tests and `pnpm bench api-stall`: the smallest valid state, and the costliest
 * shapes for a parser (most values per byte, most keys) next to the shape of the largest real state.
 */

/** The smallest valid reading state; spread it and override fields. */
export const minimalState = {
  format: 1,
  id: 'story',
  variables: {} as Record<string, unknown>,
  choices: {} as Record<string, string[]>,
  visitedChoiceGroups: [] as string[],
  rng: { algorithm: 'mulberry32', seed: 1, state: 2 },
  visitedParts: [] as string[],
  renderedParagraph: 0,
}

/**
 * JSON text of a state with `values` JSON values in all, most of them empty arrays in one variable: the cheapest
 * bytes (3 each) for the most values.
 */
export function emptyArraysState(values: number, extra: Partial<typeof minimalState> = {}): string {
  return JSON.stringify({ ...minimalState, ...extra, variables: {} }).replace(
    '"variables":{}',
    `"variables":{"v":[${'[],'.repeat(values - 14)}[]]}`,
  )
}

/** JSON text of a state with `count` variables: the most object keys. */
export function manyVariablesState(count: number): string {
  const variables: Record<string, number> = {}
  for (let i = 0; i < count; i++) variables[`k${i}`] = i
  return JSON.stringify({ ...minimalState, variables })
}

/** JSON text of an invalid state: `count` choice groups with no choice (one issue each for a validator listing all). */
export function emptyGroupsState(count: number): string {
  const choices: Record<string, string[]> = {}
  for (let i = 0; i < count; i++) choices[`g${i}`] = []
  return JSON.stringify({ ...minimalState, choices })
}

/**
 * JSON text shaped like the engine bench's state after 75,000 choices (bench/story: 539 KiB, 94,268 values, 1,962
 * variables, 1,960 choice groups).
 */
export function realLikeState(): string {
  const variables: Record<string, unknown> = { gold: 88_374, r: 2 }
  const choices: Record<string, string[]> = {}
  for (let g = 0; g < 1960; g++) {
    variables[`story/0001-rooms.sty:s${g}@visits`] = g % 120
    choices[`s${g}/c`] = Array.from({ length: g < 520 ? 39 : 38 }, (_, i) => `o${i % 4}`)
  }
  return JSON.stringify({ ...minimalState, variables, choices, visitedChoiceGroups: Object.keys(choices) })
}
