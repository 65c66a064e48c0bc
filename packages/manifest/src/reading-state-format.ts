/**
 * The reading-state format number and depth limit: a leaf shared by the zod schema and the parser.
 */

/** The reading-state format this library writes and reads. */
export const READING_STATE_FORMAT = 1

/**
 * Deepest nesting a saved state may have (the state object is depth 1). Variables hold lists and
 * maps; anything deeper is corrupt or hostile, and refusing it keeps validation off the stack limit.
 */
export const MAX_READING_STATE_DEPTH = 64
