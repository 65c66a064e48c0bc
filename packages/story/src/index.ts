/**
 * @spkg/story: the story language 1.0 (`.sty` parts and `.xty` modules): parser, static checker
 * and interpreter. Runs the same in browsers and Node; it never touches the DOM, files or network.
 */
export type * from './ast.ts'
export type { CheckStoryInput } from './check/check-story.ts'
export { checkStory } from './check/check-story.ts'
export { parseModule } from './parse/parse-module.ts'
export type { ParseOptions, ParseResult } from './parse/parse-story.ts'
export { parseStory } from './parse/parse-story.ts'
export type { ModulePathOptions, ResolvedTarget } from './paths.ts'
export { modulePathCandidates, resolveModulePath, resolveTarget } from './paths.ts'
export * from './run/index.ts'
