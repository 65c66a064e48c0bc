-> room
== room ==
A dusty room.
* [Open the drawer]
  A key.
  -> room
- Nothing left to search.
-> END
