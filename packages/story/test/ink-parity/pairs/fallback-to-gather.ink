-> room
== room ==
A dusty room.
* [Open the drawer]
  A key.
  -> room
* [Open the wardrobe]
  Moths.
  -> room
* ->
- Nothing left to search.
-> END
