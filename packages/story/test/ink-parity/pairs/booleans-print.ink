VAR lit = false
{true} {false} {1 == 1} {2 < 1} {not true} {lit}
* [Light the lamp]
  ~ lit = true
* [Leave it]
- Lamp lit: {lit}. {lit: It glows.|It is dark.}
-> END
