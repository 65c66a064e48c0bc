-> square
== square ==
The square.
<- gossip
-> DONE
== gossip ==
* "Tell me[."] more," you say.
  He shrugs.
  -> square
