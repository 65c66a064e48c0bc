/**
 * The story interpreter's public surface: runs, events, resume by replay and the mulberry32
 * generator; re-exported by the package entry point.
 */
export { createStoryRun } from './create-story-run.ts'
export { resumeStoryRun } from './resume-story-run.ts'
export type { Rng } from './rng.ts'
export { createRng, drawUint32 } from './rng.ts'
export type {
  Block,
  BlockEvent,
  HostFunction,
  HostFunctions,
  PauseEvent,
  PauseLink,
  PauseOption,
  ResumeResult,
  StoryAnswer,
  StoryEvent,
  StoryRun,
  StoryRunOptions,
  StorySourceLike,
  TextRun,
  Value,
} from './types.ts'
