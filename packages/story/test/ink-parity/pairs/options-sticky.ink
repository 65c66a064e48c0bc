VAR coins = 2
-> shop
== shop ==
You have {coins} coins.
+ {coins > 0} [Buy bread]
  ~ coins = coins - 1
  -> shop
+ [Look around]
  Bread, cheese, a cat.
  -> shop
+ [Leave]
  -> END
