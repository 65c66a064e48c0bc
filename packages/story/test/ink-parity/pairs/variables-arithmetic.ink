VAR a = 7
VAR b = 2.5
VAR c = -3
{a + 3} {a - 10} {a * 2} {a % 3} {b * 2} {b + 0.25} {c * c} {-c} {a - b} {2 + 3 * 4} {(2 + 3) * 4}
~ a = a * 3
~ b = b / 2
{a} {b}
~ a++
~ c += 5
~ b -= 0.5
{a} {c} {b}
* [Double it]
  ~ a = a * 2
* [Halve it]
  ~ b = b / 2
- {a} {b}
-> END
