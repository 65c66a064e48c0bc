-> clock
== clock ==
Turn {TURNS()}.
* [Wind it] -> clock
* [Shake it] -> clock
* -> done
== done ==
Done after {TURNS()} turns.
-> END
