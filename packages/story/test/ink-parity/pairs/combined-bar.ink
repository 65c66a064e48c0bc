VAR gold = 1
-> bar
== bar ==
The Bar
~ temp asked = 0
The barkeep polishes a glass.
- (talk)
* [Ask about the map]
  ~ asked = asked + 1
  "Lost it at cards," she says.
* {gold >= 2} [Buy a drink #cost:2]
  ~ gold = gold - 2
+ [Just listen]
  She hums. {asked > 0: She keeps glancing at you.}
+ [Leave] -> END
- She turns away.
-> talk
