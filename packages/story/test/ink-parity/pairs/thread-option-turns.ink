-> square
== square ==
Since: {TURNS_SINCE(-> gossip.ask)}.
<- gossip
-> DONE
== gossip ==
+ (ask) [Ask] -> square
+ [Leave] -> END
