-> room
== room ==
<- own
<- chat
-> DONE
= own
* [Open the box] -> room
* -> done
== chat ==
* [Chat] -> room
== done ==
Nothing left to do.
-> END
