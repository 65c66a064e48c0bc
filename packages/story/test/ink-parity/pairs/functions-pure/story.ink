CONST MAX_HP = 10
VAR hp = 10
The duel begins: {hp}/{MAX_HP}.
~ hp = hurt(3)
After the first blow: {bar(hp)}.
* [Parry]
  ~ hp = hurt(1)
* [Take it]
  ~ hp = hurt(20)
- After the second: {bar(hp)}.
-> END
=== function hurt(n) ===
~ return MAX(0, hp - n)
=== function bar(n) ===
~ return "[" + n + "/" + MAX_HP + "]"
