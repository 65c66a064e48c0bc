VAR hp = 6
VAR foe = 5
-> round
== round ==
Round {round}.
~ status()
{foe <= 0: -> won}
{hp <= 0: -> lost}
+ [Attack]
  ~ foe = hit(foe, 3)
  -> next
* [Defend]
  ~ hp = hit(hp, 1)
  -> next
+ [Wait]
  ~ hp = hit(hp, 2)
  -> next
== next ==
-> round
== won ==
You win with {hp} hp.
-> END
== lost ==
You fall.
-> END
=== function hit(x, n) ===
~ return MAX(0, x - n)
=== function status() ===
You: {hp}, foe: {foe}{hp < 3: (bleeding)}
