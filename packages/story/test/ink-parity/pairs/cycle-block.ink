VAR coins = 0
-> fountain
== fountain ==
{ cycle:
  - The water is still.
  - Something glints below.
    ~ coins++
}
You have {coins} coins.
+ [Look] -> fountain
+ [Leave] -> END
