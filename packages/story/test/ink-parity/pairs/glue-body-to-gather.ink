Off.
* [Run]
  You run <>
* [Walk]
  You walk <>
- away.
-> END
