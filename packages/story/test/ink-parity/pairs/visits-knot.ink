-> hall
== hall ==
You are in the hall (visit {hall}).
{hall > 2: The guard notices you.}
* [Leave] -> END
+ [Look around] -> look
+ [Go down to the cellar] -> cellar
== look ==
Dust and cobwebs.
-> hall
== cellar ==
The cellar. Hall visits so far: {hall}. Cellar visits: {cellar}.
+ [Back up] -> hall
