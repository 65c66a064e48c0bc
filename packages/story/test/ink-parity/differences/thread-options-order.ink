-> square
== square ==
<- gossip
* [Buy bread] -> END
== gossip ==
* [Listen] -> END
