-> square
== square ==
You hear <>
<- gossip
-> DONE
== gossip ==
a rumour.
* [Listen] -> END
