-> square
== square ==
Turn {TURNS()}.
<- gossip
-> DONE
== gossip ==
+ [Listen] -> square
+ [Leave] -> END
