/**
 * @spkg/story: the story language 1.0 and 1.1 (`.sty` parts and `.xty` modules): parser, static checker
 * and interpreter. Runs the same in browsers and Node; it never touches the DOM, files or network.
 * Every export is listed here and described in the README ("Exports").
 */

export type { NamesMap, StorySourceLike } from '@spkg/manifest'
export type {
  BinOp,
  BlockFn,
  ConstDecl,
  DeclarationBlock,
  Expr,
  GlueSide,
  GroupIf,
  Inline,
  ItemsDecl,
  JumpNode,
  MediaKind,
  ModuleAst,
  ModuleUse,
  Node,
  OptionNode,
  PartAst,
  Pos,
  SetStmt,
  ThreadNode,
  TunnelNode,
  TunnelReturnNode,
} from './ast.ts'
export type { CheckStoryInput } from './check/check-story.ts'
export { checkStory, tabBarVariables } from './check/check-story.ts'
export type { StoryLang } from './lang.ts'
export { readingLang, STORY_LANG, STORY_LANG_VERSIONS, storyLangOf } from './lang.ts'
export { translateDiagnosticNames, translateEventNames } from './minify/event-names.ts'
export type { MinifyOptions, MinifyResult, StoryFile } from './minify/minify-story.ts'
export { MinifyError, minifyStory, unminifyStory } from './minify/minify-story.ts'
export type { NamesDirection } from './minify/state-names.ts'
export { translateStateNames } from './minify/state-names.ts'
export { parseModule } from './parse/parse-module.ts'
export type { ParseOptions, ParseResult } from './parse/parse-story.ts'
export { parseStory } from './parse/parse-story.ts'
export type { ModulePathOptions, ResolvedTarget } from './paths.ts'
export { modulePathCandidates, resolveModulePath, resolveTarget } from './paths.ts'
export { createStoryRun } from './run/create-story-run.ts'
export { resumeStoryRun } from './run/resume-story-run.ts'
export type { Rng } from './run/rng.ts'
export { createRng, drawUint32 } from './run/rng.ts'
export type {
  Block,
  BlockEvent,
  HostFunction,
  HostFunctions,
  ItemSet,
  PauseEvent,
  PauseLink,
  PauseOption,
  ResumeResult,
  StoryAnswer,
  StoryEvent,
  StoryRun,
  StoryRunOptions,
  TextRun,
  Value,
} from './run/types.ts'
