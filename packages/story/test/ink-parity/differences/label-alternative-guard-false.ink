-> door
== door ==
~ temp open = TURNS() > 1
+ {open} [{Enter|Enter again|Enter once more}] -> door
+ [{&Wait|Still wait}] -> door
+ [Leave] -> END
