VAR n = 0
-> shop
== shop ==
+ [Count]
  ~ n++
  -> shop
+ {n == 0} [Zero] -> shop
+ {n == 1} [One] -> shop
+ {n > 1 && n < 3} [Two] -> shop
+ {n >= 3} [Many] -> shop
+ [Leave] -> END
