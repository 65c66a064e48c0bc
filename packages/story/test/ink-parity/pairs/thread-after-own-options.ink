-> square
== square ==
The square.
<- own
<- gossip
-> DONE
= own
* [Buy bread]
  The bread is warm.
  -> END
== gossip ==
An old man waves at you.
* [Listen to him]
  "The bridge is out," he says.
  -> square
