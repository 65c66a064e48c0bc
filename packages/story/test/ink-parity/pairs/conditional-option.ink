VAR strength = 2
VAR key = false
A locked chest.
* {strength > 1} [Force it open]
  It gives.
* {key} [Unlock it]
  Click.
* {strength > 5} [Smash it]
  Splinters.
* {strength > 1} {not key} [Pry at the lid]
  The lid creaks.
* [Walk away]
  You walk away.
- The chest stays behind.
-> END
