VAR brave = false
* [Drink the potion]
  ~ brave = true
* [Pour it away]
- -> cave
== cave ==
The cave mouth yawns.
{ brave:
  * [Walk in]
    You walk in.
    -> after
  * [Shout first]
    Echoes.
    -> after
- else:
  * [Go home]
    You go home.
    -> after
}
= after
Night falls.
-> END
