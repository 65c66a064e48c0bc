You reach the stall.
-> greet ->
You leave.
-> END
== greet ==
The baker nods.
->->
