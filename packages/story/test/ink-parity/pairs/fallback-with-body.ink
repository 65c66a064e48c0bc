-> room
== room ==
A dusty room.
* [Open the drawer] -> room
* [Open the wardrobe] -> room
* ->
  Nothing left to search.
- You sit down.
-> END
