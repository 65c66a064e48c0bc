VAR n = 0
-> loop
== loop ==
~ n = n + 1
Round {n}.
{n >= 3: -> done}
+ [Again] -> loop
+ [Stop] -> done
== done ==
Done after {n} rounds.
-> END
