// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
/**
 * The worked examples of STORY-LANGUAGE.md section 11 as story folders (file path → text), for the
 * `spkg play` tests. Flat examples are single `.sty` files; E1 and E5 are packaged.
 */

/** A minimal valid manifest for the packaged examples. */
export const manifest = (parts: string[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: '6f1c2a9e-0b7d-4c1e-9a53-2d8e4f6b7a10', version: '1.0.0', parts, ...extra })

/** E1: blocks, tags, defaults, session (a packaged archive whose one part is `story/inn.sty`). */
export const E1: Record<string, string> = {
  'manifest.json': manifest(['story/inn.sty']),
  'session.json': '{"name":"mira","hard":true}',
  'assets/inn.webp': 'RIFF....WEBP',
  'story/inn.sty': `#theme:night
{set gold = 5}
{set name = "traveller"}
{set hard = false}
# The Crooked Inn [#inn]
Welcome, \${cap(name)}. The fire is *almost* out.\\
You carry \${gold} coins{if hard}, which will not last{end}. #mood:cold
{set gold = gold / 2}
![The common room](assets/inn.webp) #fullscreen
Half goes on a room; \${gold} left.
`,
}

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

/** E3: guards, sticky options, explicit ids, a local (`bar.sty`, session `{"gold": 1}`). */
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

/** E5: gate, links, a scene anchor (three packaged parts). */
export const E5: Record<string, string> = {
  'manifest.json': manifest(['story/0001-inn.sty', 'story/0002-road.sty', 'story/0003-forest.sty']),
  'story/0001-inn.sty': `{set gold = 3}
Dawn. You settle your bill.
{set gold -= 1}
[[ 0002-road.sty ]]
`,
  'story/0002-road.sty': `# The Road [#road]
The road forks: the [forest path > 0003-forest.sty:edge] or the
[river road > 0003-forest.sty].
`,
  'story/0003-forest.sty': `{set wolves = 2}
Trees close in.
## Forest Edge [#edge]
\${wolves} wolves watch you. You have \${gold} coins.
* Run -> END
`,
}

/** E6: a module (`combat.xty` used by `duel.sty`, flat). */
export const E6: Record<string, string> = {
  'combat.xty': `{set hp = 10}
{const MAX_HP = 10}
{fn hurt(n) = max(0, hp - n)}
{fn bar(n) = "[" + n + "/" + MAX_HP + "]"}
{passage status(who)}
\${who}: \${bar(hp)}{if hp < 4} (bleeding){end}
{end}
`,
  'duel.sty': `{use combat}
The duel begins.
{insert status("You")}
{set hp = hurt(3)}
{insert status("You")}
{set hp = hurt(4)}
{insert status("You")}
`,
}

/** E8: diagnostics (`bad.sty`). */
export const E8 = `{set gold = 5
# Hall [#hall]
* {if gold >} Pay
-> #vault
[[ ../x.sty ]]
## Again [#hall]
\${gold
`
