-> square
== square ==
<- gossip
-> DONE
== gossip ==
Someone mentions {~the bridge|the mill|the fair}.
+ [Listen] -> square
+ [Leave] -> END
