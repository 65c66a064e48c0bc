/**
 * @spkg/story: the story language 1.0 (`.sty` parts and `.xty` modules): parser, static checker
 * and interpreter. Runs the same in browsers and Node; it never touches the DOM, files or network.
 */
export type * from './ast.ts'
export { parseModule } from './parse-module.ts'
export type { ParseOptions, ParseResult } from './parse-story.ts'
export { parseStory } from './parse-story.ts'
export * from './run/index.ts'
