-> well
== well ==
{ stopping:
  - First time.
    -> first
  - Again.
}
+ [Look] -> well
+ [Leave] -> END
== first ==
Welcome.
-> well
