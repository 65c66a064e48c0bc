/**
 * Story variable names (STORY-LANGUAGE.md): a leaf, shared by `session.json` checks and the story engine.
 */

/** Words a story variable cannot be named (STORY-LANGUAGE.md clarification 18). */
export const RESERVED_WORDS: ReadonlySet<string> = new Set(
  'and or not true false if elif else end set local use seed const fn passage insert extern call'.split(' '),
)

/** True when `name` can be a story variable (a letter, then letters, digits or `_`; not reserved, not `d<digits>`). */
export function isVariableName(name: string): boolean {
  return /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name) && !RESERVED_WORDS.has(name) && !/^d\d+$/.test(name)
}
