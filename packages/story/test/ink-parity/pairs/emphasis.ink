It was very late, and nobody answered. 3 * 4 is twelve.
* [Shout]
  You shout, really loudly, and once more than once.
- -> END
