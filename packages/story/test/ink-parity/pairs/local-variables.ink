-> bar
== bar ==
~ temp asked = 0
- (talk)
+ [Ask about the map]
  ~ asked = asked + 1
  "Lost it at cards," she says. (asked {asked} times)
  -> talk
+ [Leave] -> END
