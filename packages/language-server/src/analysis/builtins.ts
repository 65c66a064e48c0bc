/** Hover text of the built-in functions (STORY-LANGUAGE.md sections 6, 7 and 13). */
export const BUILTIN_DOCS: ReadonlyMap<string, string> = new Map([
  ['len', 'len(x): the number of code points of a string or elements of a list'],
  ['join', 'join(list, sep): the elements printed and joined by sep'],
  ['contains', 'contains(haystack, needle): a list element (deep equality) or a substring'],
  ['min', 'min(a, b, ...) or min(list): the smallest number'],
  ['max', 'max(a, b, ...) or max(list): the largest number'],
  ['abs', 'abs(x): the absolute value'],
  ['floor', 'floor(x): rounds down'],
  ['ceil', 'ceil(x): rounds up'],
  ['round', 'round(x): floor(x + 0.5)'],
  ['str', 'str(x): the printed form of a value'],
  ['num', 'num(s): the number a string spells (story/type-error otherwise)'],
  ['upper', 'upper(s): upper case'],
  ['lower', 'lower(s): lower case'],
  ['cap', 'cap(s): the first code point upper-cased, the rest unchanged'],
  ['random', 'random(a, b): an integer from a to b inclusive; one draw (b - a < 10^6)'],
  ['roll', 'roll(n, m): n dice of m sides summed, like NdM; n draws (1 ≤ n ≤ 100)'],
  ['pick', 'pick(list): one element at random; one draw (false for an empty list)'],
  ['chance', 'chance(p): true with probability p; one draw'],
  [
    'visits',
    'visits(#id?): how many times the heading #id (or the enclosing section) was reached; at 1.1 any id (an anchor or group: arrivals; an option: times chosen), part.sty:id or part.sty',
  ],
  ['passed', 'passed(#group): whether the reader has arrived at the choice group'],
  ['picked', 'picked(#group): the id of the option last chosen in the group, or ""'],
  [
    'turns',
    'turns() (1.1): the pauses answered so far; turns(#id) or turns(part.sty:id): the turns since flow last reached the id, -1 if never',
  ],
])

/** Names of the built-ins, for completion. */
export const BUILTIN_NAMES: readonly string[] = [...BUILTIN_DOCS.keys()]
