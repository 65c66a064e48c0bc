-> well
== well ==
{ stopping:
  - You find a well.
    A sign says: one coin, one wish.
  - The well again.
}
+ [Look] -> well
+ [Leave] -> END
