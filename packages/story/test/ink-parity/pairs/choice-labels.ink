-> bar
== bar ==
The barkeep polishes a glass.
* (map) [Ask about the map]
  "Lost it at cards."
* (drink) [Order a drink]
  The ale is warm.
- (after) {map: You know about the map.|You know nothing.} {after} {bar.drink}
-> END
