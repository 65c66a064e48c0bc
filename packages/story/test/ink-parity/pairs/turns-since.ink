-> inn
== inn ==
Since the bell: {TURNS_SINCE(-> bell)}.
+ [Ring] -> bell
+ [Wait] -> inn
+ [Leave] -> END
== bell ==
Ding.
-> inn
