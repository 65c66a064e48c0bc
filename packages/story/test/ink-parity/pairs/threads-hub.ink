-> square
== square ==
The square is busy.
<- talk
<- look
-> DONE
== talk ==
* [Talk to the baker]
  Fresh bread today.
  -> square
== look ==
You look around.
+ [Look at the fountain]
  It is dry.
  -> square
* [Leave] -> END
