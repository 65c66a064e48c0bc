export type { StorySource } from './story/story-source.ts'
