-> inn
== inn ==
You rang {bell} times.
+ (bell) [Ring the bell] -> inn
+ [Leave] -> END
