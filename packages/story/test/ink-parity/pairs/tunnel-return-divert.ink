You sneak past.
-> guard ->
You are through.
-> END
== guard ==
A guard stops you.
* [Bribe him]
  He pockets the coin.
  ->->
* [Run]
  ->-> caught
== caught ==
He catches you.
-> END
