-> inn
== inn ==
Since you ordered: {TURNS_SINCE(-> inn.order)}.
+ (order) [Order a drink] -> wait
+ [Wait] -> wait
+ [Leave] -> END
== wait ==
-> inn
