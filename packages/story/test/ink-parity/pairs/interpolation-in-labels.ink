VAR coins = 3
VAR cost = 2
-> shop
== shop ==
+ {coins >= cost} [Buy a drink for {cost} coins ({coins} left)]
  ~ coins = coins - cost
  ~ cost = cost - 1
  -> shop
+ [Leave with {coins} coins] -> END
