VAR stones = 0
-> well
== well ==
~ stones += 1
~ temp depth = stones * 10
You drop a stone: {depth} feet.
+ [Again] -> well
+ [Leave]
  ~ temp note = "cold"
  ~ note = note + " and still"
  The water was {note}.
  -> END
