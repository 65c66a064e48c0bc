VAR gold = 2
VAR name = "Mira"
You have {gold > 3: plenty|a little}.
{gold == 2: Exactly two.}
{name == "Mira": Hello, Mira.|Hello, stranger.}
* [Spend one]
  ~ gold = gold - 1
* [Find three]
  ~ gold = gold + 3
* [Lose two]
  ~ gold = gold - 2
- Now: {gold > 3: plenty|{gold > 0: a little|nothing}}.
-> END
