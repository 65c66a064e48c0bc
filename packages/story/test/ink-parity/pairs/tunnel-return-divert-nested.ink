A.
-> outer ->
Never.
-> END
== outer ==
-> inner ->
Outer resumes.
->->
== inner ==
Inner.
->-> elsewhere
== elsewhere ==
Elsewhere.
->->
