-> yard
== yard ==
The wind brings {~rain|snow|ash}.
+ [Wait] -> yard
+ [Leave] -> END
