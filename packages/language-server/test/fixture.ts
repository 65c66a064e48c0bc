// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/** A small packaged story with two parts and a module, used by the server tests. */
export const FIXTURE: Record<string, string> = {
  'manifest.json': JSON.stringify({
    story_lang: '1.0',
    parts: ['story/0001-inn.sty', 'story/0002-road.sty'],
  }),
  'story/0001-inn.sty': [
    '{use combat}',
    '{set gold = 3}',
    '# The Inn [#inn]',
    'You have ${gold} coins and ${hurt(1)} hp, ${len("ab")} cups.',
    '[#bar]',
    '* Drink [#drink]',
    '  {set gold -= 1}',
    '+ Leave -> #out',
    '## Outside [#out] #night',
    '[[ 0002-road.sty:road ]]',
    '',
  ].join('\n'),
  'story/0002-road.sty': [
    '# The Road [#road]',
    'Back to the [inn > 0001-inn.sty:inn].',
    '### Fork [#fork]',
    'The end.',
    '# Far',
    '',
  ].join('\n'),
  'extensions/combat.xty': ['{set hp = 10}', '{fn hurt(n) = max(0, hp - n)}', ''].join('\n'),
}
