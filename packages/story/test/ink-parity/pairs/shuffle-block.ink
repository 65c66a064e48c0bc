-> deck
== deck ==
{ shuffle:
  - You draw the king.
  - You draw the queen.
}
+ [Draw] -> deck
+ [Stop] -> END
