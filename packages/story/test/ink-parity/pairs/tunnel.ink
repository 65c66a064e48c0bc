You reach the stall.
-> greet ->
You buy a loaf.
-> greet ->
You leave.
-> END
== greet ==
The baker nods.
->->
