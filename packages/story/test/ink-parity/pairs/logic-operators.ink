VAR a = true
VAR b = false
VAR n = 4
~ temp either = b || n > 3
{a and b} {a or b} {not b} {a && not b} {either} {n > 1 and n < 10} {n == 4 or b}
* {a and n > 3} [Both]
  Both hold.
* {b or n < 3} [Either]
  One holds.
* {not (a and b)} [Not both]
  Not both hold.
- -> END
