/**
 * @spkg/story: the story language 1.0 (`.sty` parts and `.xty` modules): parser, static checker
 * and interpreter. Runs the same in browsers and Node; it never touches the DOM, files or network.
 */
export type * from './ast.ts'
export type { CheckStoryInput } from './check-story.ts'
export { checkStory } from './check-story.ts'
export { parseModule } from './parse-module.ts'
export type { ParseOptions, ParseResult } from './parse-story.ts'
export { parseStory } from './parse-story.ts'
export type { ModulePathOptions, ResolvedTarget } from './resolve-paths.ts'
export { modulePathCandidates, resolveModulePath, resolveTarget } from './resolve-paths.ts'
export * from './run/index.ts'
