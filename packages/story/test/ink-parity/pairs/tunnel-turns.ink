Turn {TURNS()}.
-> t ->
Turn {TURNS()}, since {TURNS_SINCE(-> t)}.
-> END
== t ==
* [A]
* [B]
- Inside {TURNS()}.
->->
