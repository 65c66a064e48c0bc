VAR hp = 10
The duel begins.
~ status("You")
~ hp = 3
~ status("You")
-> END
=== function status(who) ===
{who}: {hp}/10{hp < 4: (bleeding)}
