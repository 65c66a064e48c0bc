// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/**
 * The worked examples of STORY-LANGUAGE.md section 11 as source text: the one copy that the story
 * engine's conformance tests and the `spkg play` tests share.
 */

/** E1: blocks, tags, defaults, session (`story/inn.sty`). */
export const E1 = `#theme:night
{set gold = 5}
{set name = "traveller"}
{set hard = false}
# The Crooked Inn [#inn]
Welcome, \${cap(name)}. The fire is *almost* out.\\
You carry \${gold} coins{if hard}, which will not last{end}. #mood:cold
{set gold = gold / 2}
![The common room](assets/inn.webp) #fullscreen
Half goes on a room; \${gold} left.
`

/** E2: once-only options, fallback, visits (`platform.sty`). */
export const E2 = `# Platform 9
## [#search]
You search for a friendly face.{if visits() > 1} Attempt \${visits()}.{end}
* The woman in the hat
  She pushes you aside.
  -> #search
* The man with the briefcase -> #search
* -> #collapse
## [#collapse]
You collapse onto the platform.
-> END
`

/** E3: guards, sticky options, explicit ids, a local (`bar.sty`). */
export const E3 = `# The Bar [#bar]
{local asked = 0}
The barkeep polishes a glass.
[#talk]
* Ask about the map [#map]
  {set asked += 1}
  "Lost it at cards," she says.
* {if gold >= 2} Buy a drink #cost:2
  {set gold -= 2}
+ Just listen
  She hums.{if asked > 0} She keeps glancing at you.{end}
+ Leave -> END
She turns away.
-> #talk
`

/** E4: rolls with seed 42 (`dice.sty`). */
export const E4 = `{seed 42}
You swing and roll \${2d6}.
{set dmg = random(1, 100)}
{if chance(0.5)}
Critical! \${dmg * 2} damage.
{else}
\${dmg} damage.
{end}
The troll grabs \${pick(["a club", "a rock", "a chair"])}.
`

/** E5: gate, links, a scene anchor: three parts by path. */
export const E5 = {
  'story/0001-inn.sty': '{set gold = 3}\nDawn. You settle your bill.\n{set gold -= 1}\n[[ 0002-road.sty ]]\n',
  'story/0002-road.sty':
    '# The Road [#road]\nThe road forks: the [forest path > 0003-forest.sty:edge] or the\n[river road > 0003-forest.sty].\n',
  'story/0003-forest.sty':
    '{set wolves = 2}\nTrees close in.\n## Forest Edge [#edge]\n${wolves} wolves watch you. You have ${gold} coins.\n* Run -> END\n',
}

/** E6: the module `extensions/combat.xty`. */
export const E6_MODULE = `{set hp = 10}
{const MAX_HP = 10}
{fn hurt(n) = max(0, hp - n)}
{fn bar(n) = "[" + n + "/" + MAX_HP + "]"}
{passage status(who)}
\${who}: \${bar(hp)}{if hp < 4} (bleeding){end}
{end}
`

/** E6: the part `duel.sty`. */
export const E6_PART = `{use combat}
The duel begins.
{insert status("You")}
{set hp = hurt(3)}
{insert status("You")}
{set hp = hurt(4)}
{insert status("You")}
`

/** E8: diagnostics (`bad.sty`). */
export const E8 =
  '{set gold = 5\n# Hall [#hall]\n* {if gold >} Pay\n-> #vault\n[[ ../x.sty ]]\n## Again [#hall]\n${gold\n'
