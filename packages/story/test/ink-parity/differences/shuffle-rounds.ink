-> yard
== yard ==
The wind brings {~rain|snow}.
+ [Wait] -> yard
+ [Leave] -> END
