-> hall
== hall ==
You are in the hall (visit {hall}).
{hall > 2: The guard notices you.}
* [Leave] -> END
+ [Look around] -> hall
+ [Go down to the cellar] -> cellar
== cellar ==
The cellar. Hall visits so far: {hall}. Cellar visits: {cellar}.
+ [Back up] -> hall
