Start.
-> outer ->
End.
-> END
== outer ==
Outer in.
-> inner ->
Outer out.
->->
== inner ==
Inner.
->->
