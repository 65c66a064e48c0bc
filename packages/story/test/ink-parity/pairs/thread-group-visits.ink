-> square
== square ==
<- gossip
-> DONE
== gossip ==
- (g)
* [Listen]
  Since {TURNS_SINCE(-> gossip.g)}, visits {gossip.g}.
  -> END
