import { defineCodes, error, info, warning } from './types'

/** Codes of reading state, save and resume (owned by @spkg/state). */
export const STATE_CODES = defineCodes({
  'state/not-json': error('a saved reading state is not valid JSON'),
  'state/not-object': error('a saved reading state is not a JSON object'),
  'state/unknown-format': error('a saved reading state has no `format` or one this library does not read'),
  'state/invalid': error('a field of a saved reading state has the wrong type or an impossible value'),
  'state/other-story': error('a saved reading state belongs to another story `id`'),
  'state/other-version': info(
    'a saved reading state was made with another package version; resume replays it as far as it matches',
  ),
  'state/inconsistent': warning(
    'a saved reading state contradicts itself (for example a choice outside `visitedChoiceGroups`)',
  ),
  'state/storage-failed': error('the storage behind a state store could not be read or written'),
  'state/storage-unavailable': warning(
    'the storage the manifest asks for is not available here; a fallback is used',
  ),
  'state/conflict': error(
    'a save lost a race: the stored state changed since it was loaded (another device saved first)',
  ),
})
