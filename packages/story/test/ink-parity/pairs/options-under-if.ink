VAR gold = 1
-> shop
== shop ==
+ [Look around]
  Bread, lamps, rope.
  -> shop
* {gold > 0} [Buy bread]
  ~ gold -= 1
  -> shop
* {gold <= 0} [Beg]
  -> shop
+ [Leave] -> END
