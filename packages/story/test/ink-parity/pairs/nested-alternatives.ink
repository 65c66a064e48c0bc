-> door
== door ==
{You knock.|{&Tick.|Tock.} You knock again.}
Outside: {&nothing.|{!a dog barks.|a dog growls.}}
+ [Knock] -> door
+ [Leave] -> END
