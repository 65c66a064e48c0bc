/**
 * The story interpreter's public surface (createStoryRun, events, rolls, resume); re-exported by
 * the package entry point. Filled in by the interpreter work.
 */
export {}
