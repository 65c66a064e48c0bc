VAR lit = false
-> room
== room ==
The room is {lit: {&red|green|blue}|dark}.
+ [Switch] -> switch
+ [Leave] -> END
== switch ==
~ lit = not lit
-> room
