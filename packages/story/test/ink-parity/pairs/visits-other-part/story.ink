-> inn
== inn ==
The inn.
+ (bell) [Ring the bell] -> wait
+ [Leave] -> road
== wait ==
-> inn
== road ==
You rang {inn.bell} times, {TURNS_SINCE(-> inn)} turns ago at the inn.
-> END
