VAR gold = 3
Dawn. You settle your bill.
~ gold = gold - 1
-> road
== road ==
The road. You have {gold} coins.
* [Walk on]
  You walk on.
* [Turn back]
  -> inn_again
- -> forest
== inn_again ==
The inn again.
-> forest
== forest ==
Trees close in.
-> END
