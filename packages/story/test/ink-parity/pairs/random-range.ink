You roll {RANDOM(1, 3)} and {RANDOM(1, 3)}.
* [Roll again]
  ~ temp r = RANDOM(1, 2)
  {r == 1: Heads.|Tails.}
* [Stop]
- -> END
