LIST Kit = rope, lamp, key
VAR bag = ()
-> shed
== shed ==
In the shed you hold {bag: {bag}|nothing}.
+ {bag !? key} [Take the key]
  ~ bag += key
  -> shed
+ {bag ? key} [Open the door]
  The door opens; you carry {LIST_COUNT(bag)} things.
  -> END
* [Take the rope]
  ~ bag += rope
  -> shed
