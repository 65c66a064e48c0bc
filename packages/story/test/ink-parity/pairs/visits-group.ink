-> hall
== hall ==
A hall.
- (doors)
+ [Left] -> left
+ [Right] -> right
+ [Leave after {doors} arrivals] -> END
== left ==
The left room.
-> hall
== right ==
The right room.
-> hall
